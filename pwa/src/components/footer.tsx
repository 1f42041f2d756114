import { Link } from 'wouter';
import { type MessageKey, useT } from '../lib/i18n.tsx';

const columns: { id: string; title: MessageKey; links: MessageKey[] }[] = [
  {
    id: 'services',
    title: 'footer.services',
    links: ['footer.branding', 'footer.design', 'footer.marketing', 'footer.advertisement'],
  },
  { id: 'company', title: 'footer.company', links: ['footer.about', 'footer.contact', 'footer.jobs', 'footer.press'] },
  { id: 'legal', title: 'footer.legal', links: ['footer.terms', 'footer.privacy', 'footer.cookies'] },
];

export function Footer() {
  const t = useT();
  return (
    <footer className="footer">
      <div className="footer__columns">
        {columns.map((column) => (
          <nav key={column.id} className="footer__column" aria-labelledby={`footer-${column.id}`}>
            <h2 id={`footer-${column.id}`} className="footer__title">
              {t(column.title)}
            </h2>
            <ul>
              {column.links.map((label) => (
                <li key={label}>
                  <Link href="/">{t(label)}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="footer__copyright">{t('footer.copyright')}</p>
    </footer>
  );
}
