import type { DeadEvent, EventReplayed } from '../../../contract/messages.ts';
import { displayDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { isDead, markReplayed } from '../platform/data/events.ts';
import type { Env } from '../platform/env.ts';
import { type EventType, enqueue } from '../platform/events.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { type DeadEventRow, deadEvents } from './data/dead-events.ts';

/** What each kind of event says happened, after "Teeth Cleaning for Jamie Patient on Dec 3 …". */
const HAPPENED: Record<EventType, string> = {
  'booking.placed': 'was booked',
  'booking.moved': 'was moved',
  'booking.cancelled': 'was cancelled',
  'booking.released': 'was released unpaid',
  'booking.paid': 'was paid',
  'booking.refunded': 'was refunded',
  'booking.attended': 'was marked attended',
  'booking.no_show': 'was marked missed',
  'booking.kept': 'was kept after a schedule change',
  'booking.stranded': 'no longer fits the schedule',
  'booking.form_answered': 'had a form answered',
  'booking.confirmed': 'was confirmed by the patient',
  'booking.callback': 'has a call-back request',
  'booking.noted': 'got a desk note',
  'offer.made': 'was offered from the waitlist',
  'offer.accepted': 'was accepted from the waitlist',
  'offer.declined': 'was declined from the waitlist',
  'offer.expired': 'was offered and the offer ran out',
  'offer.withdrawn': 'was offered and the offer withdrawn',
  'waitlist.left': 'was left on the waitlist',
  'time.freed': 'became free',
};

function whatOf(row: DeadEventRow): string {
  const happened = HAPPENED[row.type as EventType] ?? 'changed';
  if (!row.treatment) return row.type === 'time.freed' ? 'Time in the schedule became free' : `Something ${happened}`;
  const who = row.patient_name ? ` for ${row.patient_name}` : '';
  const when = row.appointment_date ? ` on ${displayDate(row.appointment_date)}` : '';
  return `${row.treatment}${who}${when} ${happened}`;
}

/** GET /api/events/dead (admin): the changes whose mails, texts or waitlist offers the queue gave up on. */
export async function listDeadEvents(_request: Request, env: Env): Promise<Response> {
  const rows = await deadEvents(env.DB);
  return json(
    rows.map(
      (row): DeadEvent => ({
        seq: row.seq,
        type: row.type,
        what: whatOf(row),
        at: row.at,
        failedAt: row.failed_at,
        attempts: row.attempts,
      }),
    ),
  );
}

/**
 * POST /api/events/dead/:seq/replay (admin): the event goes to the queue again; its consumers that
 * had already done their part skip it (one delivery per event and consumer), the others try again.
 */
export async function replayDeadEvent(request: Request & { params: Record<string, string> }, env: Env) {
  const seq = Number(inputOf(request, 'POST /events/dead/:seq/replay').params.seq);
  if (!Number.isSafeInteger(seq) || seq <= 0) throw new HttpError(404, 'No such undelivered change');
  if (!(await isDead(env.DB, seq))) throw new HttpError(404, 'No such undelivered change');
  // To the queue first: a replay that did not reach it stays on the list, to be replayed again.
  await enqueue(env, [{ seq }]);
  await markReplayed(env.DB, seq, clock()).run();
  return json({ acknowledged: true, message: 'Sent again' } satisfies EventReplayed);
}
