import { Link } from 'wouter';

export function NotFoundPage() {
  return (
    <section className="not-found">
      <h1>Page not found</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link href="/" className="button">
        Back to home
      </Link>
    </section>
  );
}
