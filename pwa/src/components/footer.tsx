import { Link } from 'wouter';

const columns = [
  { title: 'Services', links: ['Branding', 'Design', 'Marketing', 'Advertisement'] },
  { title: 'Company', links: ['About us', 'Contact', 'Jobs', 'Press kit'] },
  { title: 'Legal', links: ['Terms of use', 'Privacy policy', 'Cookie policy'] },
];

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__columns">
        {columns.map((column) => (
          <nav key={column.title} className="footer__column" aria-labelledby={`footer-${column.title}`}>
            <h2 id={`footer-${column.title}`} className="footer__title">
              {column.title}
            </h2>
            <ul>
              {column.links.map((label) => (
                <li key={label}>
                  <Link href="/">{label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="footer__copyright">Copyright © 2022 - All right reserved</p>
    </footer>
  );
}
