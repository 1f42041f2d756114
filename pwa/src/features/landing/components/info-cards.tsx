import { telHref, useClinicInfo } from '../../../lib/clinic-info.ts';
import { useT } from '../../../lib/i18n.tsx';
import '../landing.css';

const icons = {
  clock: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm-1 3v6l5 3 1-1.7-4-2.4V7z',
  pin: 'M12 2a7 7 0 0 0-7 7c0 5 7 13 7 13s7-8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z',
  phone:
    'M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z',
};

function Icon({ path }: { path: string }) {
  return (
    <svg className="info-card__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={path} />
    </svg>
  );
}

export function InfoCards() {
  const clinic = useClinicInfo();
  const t = useT();
  return (
    <section className="info-cards" aria-label={t('info.label')}>
      <article className="info-card info-card--primary">
        <Icon path={icons.clock} />
        <div>
          <h2>{t('info.hours')}</h2>
          <p data-clinic="hours">{clinic.hours}</p>
          <p data-clinic="closure" className="info-card__closure" hidden={!clinic.closure}>
            {clinic.closure}
          </p>
        </div>
      </article>
      <article className="info-card info-card--dark">
        <Icon path={icons.pin} />
        <div>
          <h2>{t('info.visit')}</h2>
          <address data-clinic="address">{clinic.address}</address>
        </div>
      </article>
      <article className="info-card info-card--primary">
        <Icon path={icons.phone} />
        <div>
          <h2>{t('info.contact')}</h2>
          <p>
            <a href={telHref(clinic.phone)} data-clinic="phone">
              {clinic.phone}
            </a>
          </p>
        </div>
      </article>
    </section>
  );
}
