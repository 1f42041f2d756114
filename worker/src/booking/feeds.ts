import type { Deleted } from '../../../contract/answers.ts';
import type { FeedCreated } from '../../../contract/feeds.ts';
import { doctorById } from '../clinic/data/doctors.ts';
import { messageSettings } from '../clinic/data/message-settings.ts';
import { callerOf } from '../people/auth.ts';
import type { User } from '../people/data/users.ts';
import { userLanguage } from '../people/data/users.ts';
import { clinicNow } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { languageOf, wordsFor } from '../platform/words.ts';
import { calendarAppointment, calendarEvent, calendarOf } from './calendar.ts';
import { type FeedOwner, feedAppointments, feedOwner, revokeFeed, rotateFeed } from './data/feeds.ts';

/** How far back a feed reaches: the last 30 days' visits, and every upcoming one. */
const PAST_DAYS = 30;

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whose feed a request is about: the caller's, or (an admin only) a doctor's. */
async function ownerOf(env: Env, user: User, doctorId: string | undefined): Promise<FeedOwner> {
  if (doctorId === undefined) return { type: 'patient', id: user.id };
  if (user.role !== 'admin') throw new HttpError(403, 'Only the clinic manages a doctor’s calendar feed');
  if (!(await doctorById(env.DB, doctorId))) throw new HttpError(404, 'No such doctor');
  return { type: 'doctor', id: doctorId };
}

/**
 * POST /api/feeds {doctorId?}: a new private feed, the one before revoked in the same batch. The
 * token (256 random bits) is in the answer only; the database keeps its SHA-256.
 */
export async function createFeed(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const { doctorId } = inputOf(request, 'POST /feeds').body;
  const owner = await ownerOf(env, user, doctorId);
  const token = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
  await env.DB.batch(rotateFeed(env.DB, owner, await sha256(token)));
  const url = `${env.APP_URL}/api/feeds/${token}.ics`;
  return json({ acknowledged: true, url, webcal: url.replace(/^https?:/, 'webcal:') } satisfies FeedCreated, 201);
}

/** DELETE /api/feeds?doctorId=: the caller's (or a doctor's) feed stops working. */
export async function deleteFeed(request: Request, env: Env): Promise<Response> {
  const { doctorId } = inputOf(request, 'DELETE /feeds').query;
  const owner = await ownerOf(env, callerOf(request), doctorId);
  const { meta } = await revokeFeed(env.DB, owner).run();
  return json({ acknowledged: true, deletedCount: meta.changes } satisfies Deleted);
}

const FEED_FILE = /^([A-Za-z0-9_-]{20,100})\.ics$/;

/**
 * GET /api/feeds/:token.ics: the feed (RFC 5545), the upcoming and last 30 days' appointments with
 * the UID and SEQUENCE of the mails' calendar files, a cancelled one as STATUS:CANCELLED. No
 * treatment or patient name unless the clinic turns them on for its doctors' feeds. An unknown or
 * revoked token is a 404; `If-None-Match` with the feed's ETag a 304.
 */
export async function getFeed(request: Request, env: Env): Promise<Response> {
  const token = FEED_FILE.exec(inputOf(request, 'GET /feeds/:file').params.file)?.[1];
  const owner = token ? await feedOwner(env.DB, await sha256(token)) : null;
  if (!owner) throw new HttpError(404, 'No such calendar feed');
  const now = clock();
  const today = clinicNow(env, now).date;
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - PAST_DAYS * 86_400_000).toISOString().slice(0, 10);
  const [rows, settings] = await Promise.all([feedAppointments(env.DB, owner, from, now), messageSettings(env.DB)]);
  const clinic = { name: settings.clinic_name, address: settings.clinic_address };
  const withPatient = owner.type === 'doctor' && settings.doctor_feed_names === 1;
  const doctor = owner.type === 'doctor' ? await doctorById(env.DB, owner.id) : null;
  // A patient's feed in their account's language (docs/languages.md); a doctor's in the staff's English.
  const words = owner.type === 'patient' ? wordsFor(env, languageOf(await userLanguage(env.DB, owner.id))) : undefined;
  const events = rows.map((row) =>
    calendarEvent(
      env,
      calendarAppointment(row, row.cancelled === 1),
      clinic,
      // Stable for an unchanged appointment (the time its current row was written), so is the ETag.
      new Date(row.created_at),
      { withPatient, words },
    ),
  );
  const body = calendarOf(env, events, 'PUBLISH', doctor ? `${doctor.name} at ${clinic.name}` : clinic.name);
  const etag = `"${(await sha256(body)).slice(0, 32)}"`;
  const headers = { ETag: etag, 'Cache-Control': 'private, max-age=300' };
  const asked = request.headers.get('If-None-Match');
  if (asked?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { headers: { ...headers, 'Content-Type': 'text/calendar; charset=utf-8' } });
}
