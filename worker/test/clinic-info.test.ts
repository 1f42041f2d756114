import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, bearer, call, seed } from './helpers.ts';

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const settings = (body: object) =>
  call('/api/messages/settings', {
    method: 'PUT',
    headers: { ...admin, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The JSON block a page carries for the PWA's first render. */
const blockOf = (html: string) =>
  JSON.parse(/<script id="clinic-info" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null');

describe('the clinic’s name, address and phone come from the message settings everywhere', () => {
  it('are the seed clinic’s until the admin changes them', async () => {
    expect(await (await call('/api/clinic')).json()).toEqual({
      name: 'Smile Dental Clinic',
      address: '1200 Harbor Street, Brooklyn, NY 11201',
      phone: '+1 (555) 010-2026',
    });
  });

  it('follow an edit: the API, the landing page (title, brand, address, phone link) and every app page', async () => {
    const changed = await settings({
      clinicName: 'Bright <Teeth> & Co',
      clinicAddress: '9 Elm Road, Springfield',
      clinicPhone: '+1 (555) 777-0000',
    });
    expect(changed.status).toBe(200);
    const info = { name: 'Bright <Teeth> & Co', address: '9 Elm Road, Springfield', phone: '+1 (555) 777-0000' };
    expect(await (await call('/api/clinic')).json()).toEqual(info);

    const landing = await call('/');
    expect(landing.headers.get('ETag')).toBeNull();
    const html = await landing.text();
    expect(blockOf(html)).toEqual(info);
    // Inside the JSON block "<" is escaped: no text can close the script early.
    expect(html).toContain('{"name":"Bright \\u003cTeeth> & Co"');
    expect(html).toContain('content="Bright <Teeth> & Co: book a dental appointment online');
    expect(html).toContain('<title>Bright &lt;Teeth&gt; &amp; Co</title>');
    expect(html).toMatch(/<span data-clinic="name">Bright &lt;Teeth&gt; &amp; Co<\/span>/);
    expect(html).toMatch(/<address data-clinic="address">9 Elm Road, Springfield<\/address>/);
    expect(html).toMatch(/<a href="tel:\+15557770000" data-clinic="phone">\+1 \(555\) 777-0000<\/a>/);
    expect(html).not.toContain('Harbor Street');

    for (const path of ['/login', '/dashboard', '/no/such/page']) {
      expect(blockOf(await (await call(path)).text()), path).toEqual(info);
    }
    await settings({
      clinicName: 'Smile Dental Clinic',
      clinicAddress: '1200 Harbor Street, Brooklyn, NY 11201',
      clinicPhone: '+1 (555) 010-2026',
    });
  });
});
