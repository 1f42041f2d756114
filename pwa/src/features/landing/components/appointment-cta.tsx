import { Link } from 'wouter';
import { useT } from '../../../lib/i18n.tsx';
import '../landing.css';

export function AppointmentCta() {
  const t = useT();
  return (
    <section className="cta" aria-labelledby="cta-title">
      <svg className="cta__art" viewBox="0 0 120 120" aria-hidden="true" focusable="false">
        <rect x="10" y="22" width="100" height="88" rx="12" fill="#ffffff" opacity="0.95" />
        <rect x="10" y="22" width="100" height="24" rx="12" fill="#5eead4" />
        <rect x="30" y="10" width="10" height="24" rx="5" fill="#ccefeb" />
        <rect x="80" y="10" width="10" height="24" rx="5" fill="#ccefeb" />
        <path
          fill="none"
          stroke="#0f766e"
          strokeWidth="8"
          strokeLinecap="round"
          strokeLinejoin="round"
          d="M40 78l14 14 28-30"
        />
      </svg>
      <div>
        <p className="eyebrow eyebrow--light">{t('cta.eyebrow')}</p>
        <h2 id="cta-title">{t('cta.title')}</h2>
        <p>{t('cta.lead')}</p>
        {/* The spec's link to the booking page, and the free times before any account beside it. */}
        <div className="cta__actions">
          <Link href="/appointment" className="button button--light">
            {t('cta.book')}
          </Link>
          <Link href="/book" className="button button--outline-light">
            {t('cta.freeTimes')}
          </Link>
        </div>
      </div>
    </section>
  );
}
