import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, bearer, call, postJson, seed } from './helpers.ts';

// A real 1x1 PNG and a real 1x1 JPEG.
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
const JPEG = Uint8Array.from(
  atob(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  ),
  (c) => c.charCodeAt(0),
);

let admin: Record<string, string>;
let patient: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  patient = bearer(await accessTokenFor('patient@clinic.test'));
});

function upload(
  headers: Record<string, string>,
  file?: { bytes: Uint8Array; name: string; type: string },
  field = 'image',
) {
  const form = new FormData();
  if (file) form.append(field, new File([file.bytes], file.name, { type: file.type }));
  return call('/api/images', { method: 'POST', headers, body: form });
}

async function r2Keys(): Promise<string[]> {
  return (await env.PHOTOS.list()).objects.map((o) => o.key);
}

describe('POST /api/images', () => {
  it('stores a PNG and a JPEG in R2 under unguessable keys and serves them back', async () => {
    for (const [bytes, name, type] of [
      [PNG, 'me.png', 'image/png'],
      [JPEG, 'me.jpeg', 'image/jpeg'],
    ] as const) {
      // The declared type says nothing; the bytes decide.
      const response = await upload(admin, { bytes, name, type: 'application/octet-stream' });
      expect(response.status).toBe(201);
      const { success, data } = await response.json<{ success: boolean; data: { url: string } }>();
      expect(success).toBe(true);
      expect(data.url).toMatch(/^\/api\/images\/doctors\/[0-9a-f]{32}\.(png|jpg)$/);
      const served = await call(data.url);
      expect(served.headers.get('Content-Type')).toBe(type);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    }
  });

  it('refuses a text file named .png (415), a 3 MB image (413), no file (400), non-multipart (415)', async () => {
    const before = await r2Keys();
    const text = await upload(admin, {
      bytes: new TextEncoder().encode('hello, not an image'),
      name: 'photo.png',
      type: 'image/png',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ message: 'Only JPEG, PNG, WebP, GIF or AVIF images are accepted' });

    const big = new Uint8Array(3 * 1024 * 1024);
    big.set(PNG);
    const large = await upload(admin, { bytes: big, name: 'big.png', type: 'image/png' });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ message: 'The photo is larger than 2 MB' });

    const none = await upload(admin);
    expect(none.status).toBe(400);
    const wrongField = await upload(admin, { bytes: PNG, name: 'a.png', type: 'image/png' }, 'photo');
    expect(wrongField.status).toBe(400);
    const json = await postJson('/api/images', { image: 'x' }, admin);
    expect(json.status).toBe(415);
    expect(await r2Keys()).toEqual(before);
  });

  it('refuses a patient (403) and an anonymous caller (401)', async () => {
    expect((await upload(patient, { bytes: PNG, name: 'a.png', type: 'image/png' })).status).toBe(403);
    expect((await upload({}, { bytes: PNG, name: 'a.png', type: 'image/png' })).status).toBe(401);
  });
});

describe('doctors', () => {
  async function uploadedPhoto(): Promise<string> {
    const response = await upload(admin, { bytes: PNG, name: 'dr.png', type: 'image/png' });
    return (await response.json<{ data: { url: string } }>()).data.url;
  }

  it('adds a doctor with an uploaded photo and lists them', async () => {
    const image = await uploadedPhoto();
    const response = await postJson(
      '/api/doctors',
      { name: 'Dr. New', email: 'New@Clinic.test', specialty: 'Cosmetic Dentistry', image },
      admin,
    );
    expect(response.status).toBe(201);
    const { insertedId } = await response.json<{ insertedId: string }>();
    const list = await (await call('/api/doctors', { headers: admin })).json<{ _id: string }[]>();
    expect(list.find((d) => d._id === insertedId)).toEqual({
      _id: insertedId,
      name: 'Dr. New',
      email: 'new@clinic.test',
      specialty: 'Cosmetic Dentistry',
      image,
      // The Add A Doctor form sends no days or hours: every day, 09:00 to 17:00.
      workingDays: [0, 1, 2, 3, 4, 5, 6],
      hours: { start: '09:00', end: '17:00' },
      weeklyHours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '17:00' })),
    });
  });

  it('refuses a duplicate email (409), an unknown specialty, a foreign or missing photo (400)', async () => {
    const image = await uploadedPhoto();
    const base = { name: 'Dr. Dup', email: 'amelia.hart@clinic.test', specialty: 'Cosmetic Dentistry', image };
    expect((await postJson('/api/doctors', base, admin)).status).toBe(409);
    const cases = [
      { ...base, email: 'a@clinic.test', specialty: 'Astrology' },
      { ...base, email: 'b@clinic.test', image: 'https://evil.example/x.png' },
      { ...base, email: 'c@clinic.test', image: '/api/images/0123456789abcdef.png' },
      { ...base, email: 'd@clinic.test', name: '' },
    ];
    for (const body of cases) expect((await postJson('/api/doctors', body, admin)).status).toBe(400);
  });

  it('refuses a photo that was not uploaded for doctors, such as a review’s (400), and one another doctor uses (409)', async () => {
    await env.PHOTOS.put('seed-patient-winson.png', PNG, { httpMetadata: { contentType: 'image/png' } });
    const base = { name: 'Dr. Borrow', email: 'borrow@clinic.test', specialty: 'Cosmetic Dentistry' };
    for (const image of [
      '/api/images/seed-patient-winson.png',
      '/api/images/doctors/../seed-patient-winson.png',
      '/api/images/doctors%2F..%2Fseed-patient-winson.png',
    ]) {
      const response = await postJson('/api/doctors', { ...base, image }, admin);
      expect(response.status, image).toBe(400);
      expect(await response.json()).toMatchObject({ message: 'image must be a doctor photo uploaded to /api/images' });
    }
    const taken = await uploadedPhoto();
    expect((await postJson('/api/doctors', { ...base, email: 'first@clinic.test', image: taken }, admin)).status).toBe(
      201,
    );
    const response = await postJson('/api/doctors', { ...base, image: taken }, admin);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ message: 'This photo already belongs to another doctor' });
    expect(await env.PHOTOS.head('seed-patient-winson.png')).not.toBeNull();
  });

  it('serves the seed doctors’ photos from the doctors’ prefix', async () => {
    const list = await (await call('/api/doctors', { headers: admin })).json<{ _id: string; image: string }[]>();
    expect(list.find((d) => d._id === 'dr-amelia-hart')?.image).toBe('/api/images/doctors/seed-dr-amelia-hart.png');
  });

  it('never deletes a photo outside the doctors’ prefix, even for a doctor stored pointing at one', async () => {
    await env.PHOTOS.put('seed-patient-priya.png', PNG, { httpMetadata: { contentType: 'image/png' } });
    await env.DB.prepare(
      "INSERT INTO doctors (id, name, email, specialty_id, image_key) VALUES ('dr-legacy', 'Dr. Legacy', 'legacy@clinic.test', 'general-dentistry', 'seed-patient-priya.png')",
    ).run();
    const response = await call('/api/doctors/dr-legacy', { method: 'DELETE', headers: admin });
    expect(await response.json()).toEqual({ acknowledged: true, deletedCount: 1, stranded: [], withdrawnOffers: [] });
    expect(await env.PHOTOS.head('seed-patient-priya.png')).not.toBeNull();
    expect((await call('/api/images/seed-patient-priya.png')).status).toBe(200);
  });

  it('deletes the doctor and the photo in R2; the photo URL then answers 404', async () => {
    const image = await uploadedPhoto();
    const { insertedId } = await (
      await postJson(
        '/api/doctors',
        { name: 'Dr. Gone', email: 'gone@clinic.test', specialty: 'General Dentistry', image },
        admin,
      )
    ).json<{ insertedId: string }>();
    expect((await call(image)).status).toBe(200);
    const response = await call(`/api/doctors/${insertedId}`, { method: 'DELETE', headers: admin });
    expect(await response.json()).toEqual({ acknowledged: true, deletedCount: 1, stranded: [], withdrawnOffers: [] });
    expect(await env.DB.prepare('SELECT id FROM doctors WHERE id = ?1').bind(insertedId).first()).toBeNull();
    expect((await call(image)).status).toBe(404);
    expect((await call(`/api/doctors/${insertedId}`, { method: 'DELETE', headers: admin })).status).toBe(404);
  });

  it('changes a doctor’s name, specialty and photo; the old photo is deleted, the team page shows the new ones', async () => {
    const [first, second, third] = [await uploadedPhoto(), await uploadedPhoto(), await uploadedPhoto()];
    await postJson(
      '/api/doctors',
      { name: 'Dr. Other', email: 'other.photo@clinic.test', specialty: 'Orthodontics', image: third },
      admin,
    );
    const { insertedId } = await (
      await postJson(
        '/api/doctors',
        { name: 'Dr. Old Name', email: 'renamed@clinic.test', specialty: 'General Dentistry', image: first },
        admin,
      )
    ).json<{ insertedId: string }>();
    const put = (body: unknown) =>
      call(`/api/doctors/${insertedId}`, {
        method: 'PUT',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const changed = await put({ name: 'Dr. New Name', specialty: 'Cosmetic Dentistry', image: second });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const team = await (await call('/api/team')).json<{ name: string; specialty: string; image: string }[]>();
    expect(team).toContainEqual(
      expect.objectContaining({ name: 'Dr. New Name', specialty: 'Cosmetic Dentistry', image: second }),
    );
    expect((await call(first)).status).toBe(404);
    expect((await call(second)).status).toBe(200);
    // Another doctor's photo, a review's, or one never uploaded is refused; the doctor keeps theirs.
    expect((await put({ image: third })).status).toBe(409);
    expect((await put({ image: '/api/images/doctors/never-uploaded.png' })).status).toBe(400);
    expect((await call(second)).status).toBe(200);
  });

  it('is for admins only', async () => {
    expect((await call('/api/doctors', { headers: patient })).status).toBe(403);
    expect((await call('/api/doctors')).status).toBe(401);
    expect((await call('/api/doctors/dr-amelia-hart', { method: 'DELETE', headers: patient })).status).toBe(403);
    expect((await postJson('/api/doctors', {}, patient)).status).toBe(403);
  });
});
