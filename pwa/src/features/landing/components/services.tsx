import { useT } from '../../../lib/i18n.tsx';
import '../landing.css';

const services = [
  {
    id: 'fluoride',
    name: 'services.fluoride',
    description: 'services.fluorideText',
    icon: 'M32 6c-6 10-16 20-16 32a16 16 0 0 0 32 0C48 26 38 16 32 6zm-8 34a8 8 0 0 0 8 8v4a12 12 0 0 1-12-12z',
  },
  {
    id: 'filling',
    name: 'services.filling',
    description: 'services.fillingText',
    icon: 'M22 8c-8 0-13 6-13 15 0 8 3 12 5 17 3 7 3 18 8 18s5-13 9-13h2c4 0 4 13 9 13s5-11 8-18c2-5 5-9 5-17 0-9-5-15-13-15-6 0-8 3-11 3S28 8 22 8zm10 12a7 7 0 1 1 0 14 7 7 0 0 1 0-14z',
  },
  {
    id: 'whitening',
    name: 'services.whitening',
    description: 'services.whiteningText',
    icon: 'M22 12c-8 0-13 6-13 15 0 8 3 12 5 17 3 7 3 14 8 14s5-11 9-11h2c4 0 4 11 9 11s5-7 8-14c2-5 5-9 5-17 0-9-5-15-13-15-6 0-8 3-11 3s-5-3-11-3zM50 2l2 5 5 2-5 2-2 5-2-5-5-2 5-2z',
  },
] as const;

export function Services() {
  const t = useT();
  return (
    <section className="services" aria-labelledby="services-title">
      <h2 id="services-title">{t('services.title')}</h2>
      <p className="section-lead">{t('services.lead')}</p>
      <div className="services__grid">
        {services.map((service) => (
          <article key={service.id} className="service-card">
            <svg className="service-card__icon" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
              <path fill="currentColor" fillRule="evenodd" d={service.icon} />
            </svg>
            <h3>{t(service.name)}</h3>
            <p>{t(service.description)}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
