import { Dexie, type EntityTable } from 'dexie';

/** A user's bookings as last loaded from the server, kept for offline viewing. */
export type SavedBookings = {
  /** The signed-in user's email (lower case): one row per user. */
  email: string;
  bookings: unknown[];
  /** When they were loaded (ms since the epoch). */
  savedAt: number;
};

/** A visit's forms as last loaded (questions and answers), kept to fill them offline. */
export type SavedForms = {
  bookingId: string;
  /** Whose they are (lower case): sign-out deletes that user's. */
  email: string;
  forms: unknown[];
  savedAt: number;
};

/** A day of the front desk's schedule as last loaded (today and the next two days), kept for offline use. */
export type SavedSchedule = {
  /** The day (ISO). */
  date: string;
  /** Whose it is (lower case): sign-out deletes that user's. */
  email: string;
  day: unknown;
  savedAt: number;
};

export type OutboxState = 'queued' | 'sending' | 'parked';

/** A POST waiting to be sent: written offline, sent once when the connection is back. */
export type OutboxEntry = {
  /** The Idempotency-Key, sent unchanged on every attempt; also the row's key. */
  key: string;
  /** The API path it is sent to (pathOf). */
  path: string;
  /** POST unless it says PUT (a form's answers). */
  method?: 'POST' | 'PUT';
  /** The JSON body. */
  body: string;
  /** What the user knows the entry by (a contact message's subject), for notices. */
  label: string;
  /** The notice once it is sent (default: the contact message's). */
  sentText?: string;
  /** What the notice says before the server's reason when it is refused (default: the contact message's). */
  refusedText?: string;
  state: OutboxState;
  /** Failed attempts so far (network failures and 5xx answers). */
  attempts: number;
  /** Not to be sent before this time (ms); backoff after a failed attempt. */
  nextAttemptAt: number;
  /** While `sending`: when and by whom it was claimed; a claim older than a minute may be taken over. */
  claimedAt: number | null;
  claimId: string | null;
  /** Why it was parked (the server's message), when it was. */
  error: string | null;
  createdAt: number;
};

export const DB_NAME = 'smile-dental';

/**
 * The app's one IndexedDB database. Loaded only where it is needed (My Appointments, the contact
 * outbox), never on the landing page's first load. A schema change adds a version; never edit one.
 */
export class ClinicDatabase extends Dexie {
  savedBookings!: EntityTable<SavedBookings, 'email'>;
  outbox!: EntityTable<OutboxEntry, 'key'>;
  savedForms!: EntityTable<SavedForms, 'bookingId'>;
  savedSchedules!: EntityTable<SavedSchedule, 'date'>;

  constructor(name = DB_NAME, options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, options);
    this.version(1).stores({
      savedBookings: 'email',
      outbox: 'key, state, nextAttemptAt',
    });
    this.version(2).stores({ savedForms: 'bookingId, email' });
    this.version(3).stores({ savedSchedules: 'date, email' });
  }
}

let shared: ClinicDatabase | null = null;

/** The database of this origin (opened on first use). */
export function clinicDb(): ClinicDatabase {
  shared ??= new ClinicDatabase();
  return shared;
}

/** Closes and forgets the shared handle (tests, which delete the database between cases). */
export function closeClinicDb(): void {
  shared?.close();
  shared = null;
}
