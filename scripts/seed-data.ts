/**
 * The local clinic's seed: treatments with prices and half-hour slots inside the opening hours
 * (9.00 am to 5.00 pm), doctors, reviews and the two accounts. Plain data and SQL, shared by
 * `npm start` (through wrangler's local bindings) and the Worker tests (inside workerd).
 */

/** The seed accounts, verified, with the Firebase uid each is created with in the auth emulator. */
export const SEED_ACCOUNTS = [
  { email: 'admin@clinic.test', password: 'Admin#2026', name: 'Clinic Admin', role: 'admin', uid: 'seed-admin-uid' },
  {
    email: 'patient@clinic.test',
    password: 'Patient#2026',
    name: 'Jamie Patient',
    role: 'patient',
    uid: 'seed-patient-uid',
  },
] as const;

/** "09.00 AM - 09.30 AM" for the half hour that starts `startMinute` minutes after midnight. */
export function slotLabel(startMinute: number): string {
  const clock = (minute: number) => {
    const hours24 = Math.floor(minute / 60);
    const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(hours12)}.${pad(minute % 60)} ${hours24 < 12 ? 'AM' : 'PM'}`;
  };
  return `${clock(startMinute)} - ${clock(startMinute + 30)}`;
}

const OPEN = 9 * 60;
const CLOSE = 17 * 60;
/** Half-hour starts from `from` (hh:mm) every `everyMinutes`, all ending by closing time. */
function halfHours(from: string, everyMinutes: number): number[] {
  const [h, m] = from.split(':').map(Number);
  const starts: number[] = [];
  for (let start = (h ?? 9) * 60 + (m ?? 0); start + 30 <= CLOSE; start += everyMinutes) {
    if (start >= OPEN) starts.push(start);
  }
  return starts;
}

export const SEED_TREATMENTS = [
  { id: 'teeth-cleaning', name: 'Teeth Cleaning', priceCents: 8000, slots: halfHours('09:00', 30) },
  { id: 'fluoride-treatment', name: 'Fluoride Treatment', priceCents: 6000, slots: halfHours('09:00', 60) },
  { id: 'cavity-filling', name: 'Cavity Filling', priceCents: 15000, slots: halfHours('09:30', 60) },
  { id: 'teeth-whitening', name: 'Teeth Whitening', priceCents: 25000, slots: halfHours('10:00', 90) },
  { id: 'root-canal', name: 'Root Canal Treatment', priceCents: 70000, slots: halfHours('09:00', 120) },
  { id: 'dental-checkup', name: 'Dental Check-up', priceCents: 4500, slots: halfHours('09:00', 30) },
  {
    id: 'orthodontic-consultation',
    name: 'Orthodontic Consultation',
    priceCents: 12000,
    slots: halfHours('13:00', 60),
  },
];

export interface AvatarLook {
  background: string;
  skin: string;
  hair: string;
  clothes: string;
  coat: boolean;
}

export const SEED_DOCTORS = [
  {
    id: 'dr-amelia-hart',
    name: 'Dr. Amelia Hart',
    email: 'amelia.hart@clinic.test',
    specialty: 'Teeth Whitening',
    imageKey: 'doctors/seed-dr-amelia-hart.png',
    look: { background: '#cfe8ef', skin: '#f1c7a5', hair: '#5b3a29', clothes: '#2a7f8f', coat: true },
  },
  {
    id: 'dr-kwame-mensah',
    name: 'Dr. Kwame Mensah',
    email: 'kwame.mensah@clinic.test',
    specialty: 'Root Canal Treatment',
    imageKey: 'doctors/seed-dr-kwame-mensah.png',
    look: { background: '#dfe7f7', skin: '#8d5a3b', hair: '#1f1a17', clothes: '#3b5ba5', coat: true },
  },
  {
    id: 'dr-sofia-alvarez',
    name: 'Dr. Sofia Alvarez',
    email: 'sofia.alvarez@clinic.test',
    specialty: 'Cavity Filling',
    imageKey: 'doctors/seed-dr-sofia-alvarez.png',
    look: { background: '#f3e3d3', skin: '#e0ac84', hair: '#2b1d16', clothes: '#8f3b5b', coat: true },
  },
  {
    id: 'dr-hiro-tanaka',
    name: 'Dr. Hiro Tanaka',
    email: 'hiro.tanaka@clinic.test',
    specialty: 'Orthodontic Consultation',
    imageKey: 'doctors/seed-dr-hiro-tanaka.png',
    look: { background: '#e3f1df', skin: '#f0cfa8', hair: '#141414', clothes: '#3f7d3a', coat: true },
  },
] satisfies { id: string; name: string; email: string; specialty: string; imageKey: string; look: AvatarLook }[];

export const SEED_REVIEWS = [
  {
    id: 'review-winson',
    name: 'Winson Herry',
    location: 'California',
    imageKey: 'seed-patient-winson.png',
    review: 'The whitening took an hour and my smile has never looked better. Friendly staff who explain every step.',
    look: { background: '#fde7c8', skin: '#f2c9a0', hair: '#6b4423', clothes: '#d9822b', coat: false },
  },
  {
    id: 'review-priya',
    name: 'Priya Natarajan',
    location: 'New Jersey',
    imageKey: 'seed-patient-priya.png',
    review: 'Booked a cleaning on my phone in under a minute and paid online. No waiting room marathon.',
    look: { background: '#e4dcf7', skin: '#b9825c', hair: '#1d1411', clothes: '#6a4fb3', coat: false },
  },
  {
    id: 'review-marcus',
    name: 'Marcus Lee',
    location: 'New York',
    imageKey: 'seed-patient-marcus.png',
    review: 'I was nervous about my root canal. Dr. Mensah was calm and precise, and it did not hurt at all.',
    look: { background: '#d6eefa', skin: '#f3d2b3', hair: '#2e2e2e', clothes: '#2d6fa3', coat: false },
  },
  {
    id: 'review-elena',
    name: 'Elena Rossi',
    location: 'Boston',
    imageKey: 'seed-patient-elena.png',
    review: 'The fluoride treatment for my kids was quick and they actually enjoyed the visit. Highly recommend.',
    look: { background: '#f9dede', skin: '#efc09b', hair: '#8a4b2a', clothes: '#b23a48', coat: false },
  },
  {
    id: 'review-daniel',
    name: 'Daniel Okafor',
    location: 'Philadelphia',
    imageKey: 'seed-patient-daniel.png',
    review: 'Clear prices up front and free slots on the same day. The filling was done before my lunch break ended.',
    look: { background: '#dff3ea', skin: '#7a4a2e', hair: '#120d0b', clothes: '#2f8f63', coat: false },
  },
  {
    id: 'review-hannah',
    name: 'Hannah Schmidt',
    location: 'Chicago',
    imageKey: 'seed-patient-hannah.png',
    review: 'Modern clinic, gentle hygienists and reminders that actually help. My check-ups are finally on time.',
    look: { background: '#fff1c9', skin: '#f5d6bd', hair: '#d8b25a', clothes: '#c27c0e', coat: false },
  },
] satisfies { id: string; name: string; location: string; imageKey: string; review: string; look: AvatarLook }[];

export interface SeedStatement {
  sql: string;
  params: (string | number | null)[];
}

/**
 * Idempotent SQL for the seed: re-running it keeps every row a user added or changed. The seed
 * accounts are bound to `accountUids` (email → Firebase uid: the emulator's own, which differ from
 * SEED_ACCOUNTS' for accounts created before uids were fixed) and verified.
 */
export function seedStatements(accountUids: Record<string, string> = {}): SeedStatement[] {
  const statements: SeedStatement[] = [];
  SEED_TREATMENTS.forEach((t, position) => {
    statements.push({
      sql: `INSERT INTO treatments (id, name, price_cents, position) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (id) DO NOTHING`,
      params: [t.id, t.name, t.priceCents, position],
    });
    for (const start of t.slots) {
      statements.push({
        sql: `INSERT INTO treatment_slots (treatment_id, slot, start_minute) VALUES (?1, ?2, ?3)
              ON CONFLICT DO NOTHING`,
        params: [t.id, slotLabel(start), start],
      });
    }
  });
  for (const d of SEED_DOCTORS) {
    statements.push({
      sql: `INSERT INTO doctors (id, name, email, specialty, image_key) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT DO NOTHING`,
      params: [d.id, d.name, d.email, d.specialty, d.imageKey],
    });
  }
  SEED_REVIEWS.forEach((r, i) => {
    statements.push({
      sql: `INSERT INTO reviews (id, name, img, review, location, created_at, updated_at, status)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, 'approved') ON CONFLICT DO NOTHING`,
      // Spread over past days so the order is stable and newer patients' reviews come first.
      params: [r.id, r.name, `/api/images/${r.imageKey}`, r.review, r.location, `2026-01-0${i + 1}T12:00:00.000Z`],
    });
  });
  for (const a of SEED_ACCOUNTS) {
    statements.push({
      sql: `INSERT INTO users (id, email, name, role, firebase_uid, email_verified) VALUES (?1, ?2, ?3, ?4, ?5, 1)
            ON CONFLICT (email) DO UPDATE SET firebase_uid = excluded.firebase_uid, email_verified = 1
            ON CONFLICT DO NOTHING`,
      params: [`seed-${a.role}`, a.email, a.name, a.role, accountUids[a.email] ?? a.uid],
    });
  }
  return statements;
}
