import { useParams } from 'wouter';
import { LinkFormsPage } from '../../features/forms/components/link-forms-page.tsx';
import { useLink } from '../../features/links/api/link.ts';
import { LinkPage } from '../../features/links/components/link-page.tsx';

/**
 * /l/:token, composed here because it joins two features: a forms link opens the visit's forms;
 * any other link (a reminder's answer, a recall's times) its own page.
 */
export function LinkRoute() {
  const { token } = useParams<{ token: string }>();
  const { data: link } = useLink(token);
  return link?.kind === 'booking' && link.action === 'forms' ? <LinkFormsPage token={token} /> : <LinkPage />;
}
