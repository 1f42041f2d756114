/**
 * The local clinic's seed: treatments of 30, 60 and 90 minutes with prices and the specialty that
 * performs each, four doctors of four specialties (each working every day, 09:00 to 17:00),
 * reviews, the first forms and the two accounts. Plain data and SQL, shared by `npm start` (through wrangler's local
 * bindings) and the Worker tests (inside workerd). Migration 0005 gives every clinic its
 * specialties, two chairs and its opening hours (every day, 09:00 to 17:00, as the product
 * reference says): the seed leaves those to it, so an admin's changes to them stay.
 */

import type { FormQuestion } from '../contract/forms.ts';
import { toQuestionnaire } from '../contract/questionnaire.ts';

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

/** The specialties migration 0005 creates, by id. */
export const SEED_SPECIALTIES = [
  { id: 'general-dentistry', name: 'General Dentistry' },
  { id: 'endodontics', name: 'Endodontics' },
  { id: 'cosmetic-dentistry', name: 'Cosmetic Dentistry' },
  { id: 'orthodontics', name: 'Orthodontics' },
] as const;
type SpecialtyId = (typeof SEED_SPECIALTIES)[number]['id'];

/** The clinic's hours migration 0005 sets for every weekday (minutes after midnight). */
export const SEED_HOURS = { open: 9 * 60, close: 17 * 60 };

export const SEED_TREATMENTS = [
  {
    id: 'teeth-cleaning',
    name: 'Teeth Cleaning',
    priceCents: 8000,
    durationMinutes: 30,
    specialty: 'general-dentistry',
    recallMonths: 6,
  },
  {
    id: 'fluoride-treatment',
    name: 'Fluoride Treatment',
    priceCents: 6000,
    durationMinutes: 30,
    specialty: 'general-dentistry',
  },
  {
    id: 'cavity-filling',
    name: 'Cavity Filling',
    priceCents: 15000,
    durationMinutes: 60,
    specialty: 'general-dentistry',
  },
  {
    id: 'teeth-whitening',
    name: 'Teeth Whitening',
    priceCents: 25000,
    durationMinutes: 60,
    specialty: 'cosmetic-dentistry',
  },
  { id: 'root-canal', name: 'Root Canal Treatment', priceCents: 70000, durationMinutes: 90, specialty: 'endodontics' },
  {
    id: 'dental-checkup',
    name: 'Dental Check-up',
    priceCents: 4500,
    durationMinutes: 30,
    specialty: 'general-dentistry',
    recallMonths: 6,
  },
  {
    id: 'orthodontic-consultation',
    name: 'Orthodontic Consultation',
    priceCents: 12000,
    durationMinutes: 60,
    specialty: 'orthodontics',
  },
] satisfies {
  id: string;
  name: string;
  priceCents: number;
  durationMinutes: number;
  specialty: SpecialtyId;
  /** Months until the patient is due again (the six-month cleaning). */
  recallMonths?: number;
}[];

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
    specialty: 'cosmetic-dentistry',
    imageKey: 'doctors/seed-dr-amelia-hart.png',
    look: { background: '#cfe8ef', skin: '#f1c7a5', hair: '#5b3a29', clothes: '#2a7f8f', coat: true },
  },
  {
    id: 'dr-kwame-mensah',
    name: 'Dr. Kwame Mensah',
    email: 'kwame.mensah@clinic.test',
    specialty: 'endodontics',
    imageKey: 'doctors/seed-dr-kwame-mensah.png',
    look: { background: '#dfe7f7', skin: '#8d5a3b', hair: '#1f1a17', clothes: '#3b5ba5', coat: true },
  },
  {
    id: 'dr-sofia-alvarez',
    name: 'Dr. Sofia Alvarez',
    email: 'sofia.alvarez@clinic.test',
    specialty: 'general-dentistry',
    imageKey: 'doctors/seed-dr-sofia-alvarez.png',
    look: { background: '#f3e3d3', skin: '#e0ac84', hair: '#2b1d16', clothes: '#8f3b5b', coat: true },
  },
  {
    id: 'dr-hiro-tanaka',
    name: 'Dr. Hiro Tanaka',
    email: 'hiro.tanaka@clinic.test',
    specialty: 'orthodontics',
    imageKey: 'doctors/seed-dr-hiro-tanaka.png',
    look: { background: '#e3f1df', skin: '#f0cfa8', hair: '#141414', clothes: '#3f7d3a', coat: true },
  },
] satisfies { id: string; name: string; email: string; specialty: SpecialtyId; imageKey: string; look: AvatarLook }[];

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

/**
 * The clinic's first forms (docs/product-booking.md#forms): a medical history every visit needs, renewed
 * yearly, and the root canal's consent, given for each visit.
 */
export const SEED_FORMS: {
  id: string;
  title: string;
  renewMonths: number | null;
  treatments: 'all' | string[];
  items: FormQuestion[];
}[] = [
  {
    id: 'medical-history',
    title: 'Medical history',
    renewMonths: 12,
    treatments: 'all',
    items: [
      {
        linkId: 'penicillin',
        text: 'Are you allergic to penicillin?',
        type: 'boolean',
        required: true,
        alert: 'Penicillin allergy',
      },
      { linkId: 'other-allergies', text: 'Any other allergies (latex, anaesthetics, foods)?', type: 'string' },
      {
        linkId: 'blood-thinners',
        text: 'Do you take blood thinners?',
        type: 'boolean',
        required: true,
        alert: 'Blood thinners',
      },
      {
        linkId: 'heart',
        text: 'Do you have a heart condition or a pacemaker?',
        type: 'boolean',
        required: true,
        alert: 'Heart condition',
      },
      // Asked of a person of 12 or more (or whose age the clinic does not know), as the next two are.
      {
        linkId: 'sex',
        text: 'Sex assigned at birth',
        type: 'choice',
        options: [
          { code: 'female', display: 'Female' },
          { code: 'male', display: 'Male' },
          { code: 'other', display: 'Another, or I would rather not say' },
        ],
        shownWhen: { minAge: 12 },
      },
      {
        linkId: 'pregnant',
        text: 'Are you pregnant, or could you be?',
        type: 'boolean',
        alert: 'Pregnancy',
        shownWhen: { question: 'sex', answer: 'female' },
      },
      { linkId: 'medicines', text: 'Which medicines do you take? One per line.', type: 'text' },
      {
        linkId: 'smoking',
        text: 'Do you smoke?',
        type: 'choice',
        options: [
          { code: 'never', display: 'Never' },
          { code: 'former', display: 'Not any more' },
          { code: 'current', display: 'Yes' },
        ],
        shownWhen: { minAge: 12 },
      },
      { linkId: 'last-visit', text: 'When did you last see a dentist?', type: 'date' },
    ],
  },
  {
    id: 'root-canal-consent',
    title: 'Consent to root canal treatment',
    renewMonths: null,
    treatments: ['root-canal'],
    items: [
      {
        linkId: 'understood',
        text: 'I understand what the treatment involves, its risks (pain, swelling, a crown may be needed, the tooth may still be lost) and the alternatives, and I had the chance to ask questions.',
        type: 'boolean',
        required: true,
      },
      { linkId: 'sedation', text: 'I would like sedation.', type: 'boolean' },
      { linkId: 'signature', text: 'Type your full name to sign', type: 'signature', required: true },
    ],
  },
];

export interface SeedStatement {
  sql: string;
  params: (string | number | null)[];
}

/**
 * Idempotent SQL for the seed: re-running it keeps every row a user added or changed. The seed
 * accounts are bound to `accountUids` (email → Firebase uid: the emulator's own, which differ from
 * SEED_ACCOUNTS' for accounts created before uids were fixed) and verified.
 */
export function seedStatements(
  accountUids: Record<string, string> = {},
  // recall: false seeds a database from before migration 0013 (a migration test): no recall intervals, no forms.
  { recall = true }: { recall?: boolean } = {},
): SeedStatement[] {
  const statements: SeedStatement[] = [];
  SEED_TREATMENTS.forEach((t, position) => {
    statements.push(
      recall
        ? {
            sql: `INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position, recall_months)
                  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING`,
            params: [
              t.id,
              t.name,
              t.priceCents,
              t.durationMinutes,
              t.specialty,
              position,
              'recallMonths' in t ? (t.recallMonths ?? null) : null,
            ],
          }
        : {
            sql: `INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position)
                  VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING`,
            params: [t.id, t.name, t.priceCents, t.durationMinutes, t.specialty, position],
          },
    );
  });
  for (const d of SEED_DOCTORS) {
    // Every day, 09:00 to 17:00 (the columns' defaults): every treatment is offered on every open day.
    statements.push({
      sql: `INSERT INTO doctors (id, name, email, specialty_id, image_key) VALUES (?1, ?2, ?3, ?4, ?5)
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
  if (recall) {
    for (const f of SEED_FORMS) {
      const questionnaire = toQuestionnaire(
        f.id,
        1,
        f.title,
        f.items.map((q) => ({ ...q, required: q.required ?? false })),
      );
      statements.push(
        {
          sql: 'INSERT INTO forms (id, title, renew_months, all_treatments) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING',
          params: [f.id, f.title, f.renewMonths, f.treatments === 'all' ? 1 : 0],
        },
        {
          sql: 'INSERT INTO form_versions (form_id, version, questionnaire) VALUES (?1, 1, ?2) ON CONFLICT DO NOTHING',
          params: [f.id, JSON.stringify(questionnaire)],
        },
        ...(f.treatments === 'all' ? [] : f.treatments).map((treatment) => ({
          sql: 'INSERT INTO treatment_forms (treatment_id, form_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING',
          params: [treatment, f.id],
        })),
      );
    }
  }
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
