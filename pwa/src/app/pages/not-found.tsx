import { Link } from 'wouter';
import { useT } from '../../lib/i18n.tsx';

export function NotFoundPage() {
  const t = useT();
  return (
    <section className="not-found">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link href="/" className="button">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
