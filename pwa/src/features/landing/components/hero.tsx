import { Link } from 'wouter';
import { useT } from '../../../lib/i18n.tsx';
import '../landing.css';

export function Hero() {
  const t = useT();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero__text">
        <h1 id="hero-title">{t('hero.title')}</h1>
        <p>{t('hero.lead')}</p>
        <Link href="/book" className="button button--primary">
          {t('hero.start')}
        </Link>
      </div>
      <svg className="hero__art" viewBox="0 0 320 260" aria-hidden="true" focusable="false">
        <circle cx="170" cy="130" r="118" fill="#ccefeb" />
        <circle cx="250" cy="52" r="22" fill="#a5e3dc" />
        <circle cx="62" cy="212" r="14" fill="#a5e3dc" />
        <path
          fill="#ffffff"
          stroke="#0f766e"
          strokeWidth="6"
          strokeLinejoin="round"
          d="M124 54c-24 0-40 20-40 48 0 24 8 36 16 52 8 20 8 60 24 60s16-40 28-40h36c12 0 12 40 28 40s16-40 24-60c8-16 16-28 16-52 0-28-16-48-40-48-20 0-28 8-44 8s-24-8-48-8z"
        />
        <path fill="none" stroke="#5eead4" strokeWidth="8" strokeLinecap="round" d="M116 84c-8 6-12 16-12 28" />
        <path fill="#0f766e" d="M266 116l6 14 14 6-14 6-6 14-6-14-14-6 14-6z" />
        <path fill="#14b8a6" d="M76 72l4 9 9 4-9 4-4 9-4-9-9-4 9-4z" />
      </svg>
    </section>
  );
}
