import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, bearer, call, clinicDay, seed } from './helpers.ts';

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
      hours: '9.00 am to 5.00pm every day',
      closure: null,
      timeZone: 'America/New_York',
      bookingHorizonDays: 60,
      languages: ['en', 'es', 'fr'],
    });
  });

  it('follow an edit: the API, the landing page (title, brand, address, phone link) and every app page', async () => {
    const changed = await settings({
      clinicName: 'Bright <Teeth> & Co',
      clinicAddress: '9 Elm Road, Springfield',
      clinicPhone: '+1 (555) 777-0000',
    });
    expect(changed.status).toBe(200);
    const info = {
      name: 'Bright <Teeth> & Co',
      address: '9 Elm Road, Springfield',
      phone: '+1 (555) 777-0000',
      hours: '9.00 am to 5.00pm every day',
      closure: null,
      timeZone: 'America/New_York',
      bookingHorizonDays: 60,
      languages: ['en', 'es', 'fr'],
    };
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

describe('the home page’s hours and next closure come from the clinic’s hours and closures', () => {
  it('follow an hours change and a closure, on the landing page too', async () => {
    const send = (method: string, path: string, body: unknown) =>
      call(path, { method, headers: { ...admin, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, open: '08:30', close: '17:00' }));
    const hours = await send('PUT', '/api/clinic/hours', {
      hours: [...weekdays, { weekday: 6, open: '10:00', close: '14:00' }],
      force: true,
    });
    expect(hours.status).toBe(200);
    const day = clinicDay(20);
    expect((await send('POST', '/api/closures', { from: day, to: day, reason: 'Holidays', force: true })).status).toBe(
      201,
    );
    const info = await (await call('/api/clinic')).json<{ hours: string; closure: string }>();
    expect(info.hours).toBe('Mon–Fri 8.30 am to 5.00pm; Sat 10.00 am to 2.00pm; closed Sun');
    expect(info.closure).toMatch(/^Closed \w{3} \d{1,2}, \d{4}: Holidays$/);
    const html = await (await call('/')).text();
    expect(html).toContain(`<p data-clinic="hours">${info.hours}</p>`);
    expect(html).toContain(`class="info-card__closure">${info.closure}</p>`);
    expect(html).not.toMatch(/data-clinic="closure"[^>]*hidden/);
  });
});
