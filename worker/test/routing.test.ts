import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_REVIEWS } from '../../scripts/seed-data.ts';
import { accessTokenFor, bearer, call, seed } from './helpers.ts';

beforeAll(seed);

describe('the API surface', () => {
  it('answers an unknown /api path with a JSON 404', async () => {
    const response = await call('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'No such endpoint' });
  });

  it('answers a wrong method with 405 and the allowed ones', async () => {
    const response = await call('/api/contact', { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ message: expect.stringContaining('use POST') });

    const put = await call('/api/reviews', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(await put.json()).toMatchObject({ acknowledged: false });
  });
});

describe('percent-encoding in the address', () => {
  const malformed = ['%', '%ZZ', '%FF', '%E0%A4%A', 'a%2', '%C0%AF'];

  it('answers malformed percent-encoding in a path with a plain 400, whoever asks', async () => {
    const callers = [
      {},
      bearer(await accessTokenFor('patient@clinic.test')),
      bearer(await accessTokenFor('admin@clinic.test')),
    ];
    for (const auth of callers) {
      for (const bad of malformed) {
        for (const path of [
          `/api/users/admin/${bad}`,
          `/api/bookings/${bad}`,
          `/api/images/${bad}.png`,
          `/api/no-such/${bad}`,
        ]) {
          const response = await call(path, { headers: auth });
          expect(response.status, path).toBe(400);
          expect(await response.json()).toEqual({
            message: 'This address is not valid: a "%" in it does not start an encoded character',
          });
        }
      }
    }
  });

  it('answers malformed percent-encoding in a query with a plain 400, reads and writes alike', async () => {
    const patient = bearer(await accessTokenFor('patient@clinic.test'));
    for (const bad of malformed) {
      for (const path of [
        `/api/bookings?email=${bad}`,
        `/api/appointmentOptions?date=${bad}`,
        `/api/jwt?email=${bad}`,
        `/api/reviews?${bad}=1`,
      ]) {
        const response = await call(path, { headers: patient });
        expect(response.status, path).toBe(400);
        expect(await response.json()).toMatchObject({ message: expect.stringContaining('is not valid') });
      }
      const write = await call(`/api/contact?x=${bad}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(write.status).toBe(400);
      expect(await write.json()).toMatchObject({
        acknowledged: false,
        message: expect.stringContaining('is not valid'),
      });
    }
  });

  it('refuses a path parameter with a control character or over 500 characters, before the handler, changing nothing', async () => {
    const admin = bearer(await accessTokenFor('admin@clinic.test'));
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log').first<{ n: number }>();
    for (const [method, path, message] of [
      ['GET', '/api/bookings/a%0Ab', 'id must be one line of text, without line breaks or control characters'],
      ['DELETE', '/api/doctors/a%00b', 'id must be one line of text, without line breaks or control characters'],
      ['GET', `/api/bookings/${'x'.repeat(501)}`, 'id must be at most 500 characters'],
      ['POST', `/api/waitlist/offers/${'y'.repeat(501)}/accept`, 'id must be at most 500 characters'],
    ] as const) {
      const response = await call(path, { method, headers: admin });
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ message });
    }
    // A well-formed id that names nothing is the handler's to answer: 404.
    expect((await call(`/api/bookings/${'x'.repeat(500)}`, { headers: admin })).status).toBe(404);
    const after = await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log').first<{ n: number }>();
    expect(after).toEqual(before);
  });

  it('decodes a path parameter exactly once', async () => {
    const admin = bearer(await accessTokenFor('admin@clinic.test'));
    const encoded = await call('/api/users/admin/admin%40clinic.test', { headers: admin });
    expect(await encoded.json()).toEqual({ isAdmin: true });
    // "%2540" is an encoded "%40": the address is "admin%40clinic.test", nobody's.
    const doubly = await call('/api/users/admin/admin%2540clinic.test', { headers: admin });
    expect(await doubly.json()).toEqual({ isAdmin: false });
  });
});

describe('HEAD', () => {
  it('answers a GET route like GET, without a body', async () => {
    for (const path of ['/api/reviews', '/api/health', '/api/appointmentSpecialty', '/api/no-such-thing']) {
      const get = await call(path);
      const head = await call(path, { method: 'HEAD' });
      expect(head.status, path).toBe(get.status);
      for (const name of ['Content-Type', 'Cache-Control', 'Content-Security-Policy']) {
        expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name));
      }
      expect(await head.text()).toBe('');
      await get.body?.cancel();
    }
    const protectedHead = await call('/api/users', { method: 'HEAD' });
    expect(protectedHead.status).toBe(401);
    expect(await protectedHead.text()).toBe('');
  });

  it('is listed in Allow, and a wrong method still answers 405', async () => {
    const put = await call('/api/reviews', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET, HEAD, POST');
    const head = await call('/api/contact', { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('Allow')).toBe('POST');
    expect(await head.text()).toBe('');
  });
});

describe('GET /api/reviews', () => {
  it('lists the testimonials with the fields the home page shows', async () => {
    const response = await call('/api/reviews');
    expect(response.status).toBe(200);
    const reviews = await response.json<Record<string, string>[]>();
    expect(reviews).toHaveLength(SEED_REVIEWS.length);
    expect(Object.keys(reviews[0]!).sort()).toEqual(['_id', 'img', 'location', 'name', 'review']);
    expect(reviews.map((r) => r.name)).toContain('Marcus Lee');
  });

  it('shows the newest approved review first', async () => {
    await env.DB.prepare(
      `INSERT INTO reviews (id, name, img, review, location, status) VALUES ('fresh', 'New Patient', '', 'Great!', 'Miami', 'approved')`,
    ).run();
    const reviews = await (await call('/api/reviews')).json<{ _id: string }[]>();
    expect(reviews[0]?._id).toBe('fresh');
  });
});

describe('GET /api/images/:key', () => {
  it('serves a stored photo with its type and immutable caching', async () => {
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    await env.PHOTOS.put('abcdefgh1234.png', png, { httpMetadata: { contentType: 'image/png' } });
    const response = await call('/api/images/abcdefgh1234.png');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/png');
    expect(response.headers.get('Cache-Control')).toContain('immutable');
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png);
  });

  it('answers 404 for a missing photo and for keys that are not photo keys', async () => {
    for (const key of ['missing-photo.png', '..%2Fsecret.png', 'x.exe']) {
      const response = await call(`/api/images/${key}`);
      expect(response.status).toBe(404);
    }
  });
});

describe('the app shell', () => {
  it('serves the shell for the app routes and a 404 shell for unknown paths', async () => {
    for (const path of ['/dashboard/all-users', '/offers/some-offer', '/l/c.a1b2.1.1900000000.Zx9q']) {
      const response = await call(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toContain('text/html');
      expect(await response.text()).toContain('<div id="root">');
    }
    const unknown = await call('/no/such/page');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('<div id="root">');
  });

  it('serves a patient page its prerendered frame, which paints with no other file and no script', async () => {
    for (const [path, text, root] of [
      // The sign-in pages, the same for everyone, are hydrated: their fields take no typing until then.
      ['/login', '<h1 id="login-title">Login</h1>', '<div id="root">'],
      ['/signup', '<h1 id="signup-title">Sign Up</h1>', '<div id="root">'],
      // The others are rendered over, inert until then: their fields and links only look ready.
      ['/appointment', '<h1 id="appointment-title">Appointment</h1>', '<div id="root" data-frame inert>'],
      [
        '/dashboard',
        '<h1 id="my-appointments-title" tabindex="-1">My Appointments</h1>',
        '<div id="root" data-frame inert>',
      ],
      ['/dashboard/payment/some-booking', '<h1 id="payment-title">Payment</h1>', '<div id="root" data-frame inert>'],
    ] as const) {
      const response = await call(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('Content-Type')).toContain('text/html');
      // Nothing announced to load before the page has painted, no style sheet to wait for.
      expect(response.headers.get('Link'), path).toBeNull();
      const html = await response.text();
      expect(html, path).toContain(root);
      expect(html, path).toContain(text);
      if (!root.includes('inert')) expect(html, path).toMatch(/<input [^>]*readOnly=""/);
      expect(html).not.toMatch(/<link rel="modulepreload"|<link rel="stylesheet"(?! href="[^"]+" disabled>)/);
      // The clinic's own name, as on every page the Worker serves.
      expect(html).toContain('<script id="clinic-info" type="application/json">');
      // Not the frame file's length or validator: the clinic's details made the body longer.
      const length = response.headers.get('Content-Length');
      expect(length === null || Number(length) === new TextEncoder().encode(html).byteLength).toBe(true);
      expect(response.headers.get('ETag')).toBeNull();
    }
  });

  it('announces an admin page’s own code with the shell, from the build’s list, so it loads beside the app', async () => {
    for (const [path, chunk] of [
      ['/dashboard/schedule', 'schedule-page'],
      ['/dashboard/recalls', 'recalls-page'],
      ['/offers/some-offer', 'offer-page'],
    ] as const) {
      const link = (await call(path)).headers.get('Link') ?? '';
      expect(link, path).toMatch(new RegExp(`</assets/${chunk}-[\\w-]+\\.js>; rel=modulepreload`));
      for (const [, file] of link.matchAll(/<([^>]+)>/g)) {
        expect((await call(file ?? '')).status, `${path}: ${file}`).toBe(200);
      }
    }
    // The page's CSS is in the shell's head, applied with the first paint.
    const recalls = await call('/dashboard/recalls');
    const html = await recalls.text();
    // Not the bare shell's length or validator: the tags made the body longer.
    const length = recalls.headers.get('Content-Length');
    expect(length === null || Number(length) === new TextEncoder().encode(html).byteLength).toBe(true);
    expect(recalls.headers.get('ETag')).toBeNull();
    const sheets = [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map(
      ([, href]) => href ?? '',
    );
    expect(sheets.some((href) => /^\/assets\/recalls-page-[\w-]+\.css$/.test(href))).toBe(true);
    for (const href of sheets) expect((await call(href)).status, href).toBe(200);
    expect((await call('/dashboard/schedule')).headers.get('Link')).toContain('dashboard-layout-');
    // Not for the landing page (its own HTML lists its code) nor for a page that does not exist.
    expect((await call('/')).headers.get('Link')).toBeNull();
    expect((await call('/no/such/page')).headers.get('Link')).toBeNull();
  });

  it('never answers a missing file with HTML', async () => {
    const response = await call('/assets/old-chunk-1234.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('Content-Type')).not.toContain('text/html');
  });
});

describe('query count (Server-Timing)', () => {
  it('reports one D1 query for the free slots of a date and none for the health check', async () => {
    const slots = await call('/api/appointmentOptions?date=2030-01-01');
    expect(slots.headers.get('Server-Timing')).toBe('d1;desc="1 queries"');
    const health = await call('/api/health');
    expect(await health.json()).toEqual({ ok: true });
    expect(health.headers.get('Server-Timing')).toBe('d1;desc="0 queries"');
  });
});
