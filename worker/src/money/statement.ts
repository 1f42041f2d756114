/**
 * GET /api/users/me/statement (issue 45): what an account was charged (each visit's price, the fees
 * it owes), paid and was refunded, per person, each line with the running balance: what is owed.
 * A visit counts while it is on (booked, attended or missed); a cancelled, released or moved one
 * owes nothing, while what was paid for it and given back stays on the statement.
 */
import { cardText, FEE_NAMES, paidWithText } from '../../../contract/cards.ts';
import type { Statement, StatementLine } from '../../../contract/fees.ts';
import { callerOf } from '../people/auth.ts';
import { dependantsOf } from '../people/data/family.ts';
import { userById } from '../people/data/users.ts';
import { displayDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { auditEntry } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { toFee } from './data/fees.ts';
import {
  accountOfPatient,
  type StatementBookingRow,
  type StatementFeeRow,
  type StatementPaymentRow,
  statementBookings,
  statementFees,
  statementPayments,
} from './data/statement.ts';

const ORDER = { charge: 0, fee: 1, payment: 2, refund: 3 } as const;

type Entry = Omit<StatementLine, 'balance'> & { userId: string; signed: number };

const card = (row: { card_brand: string | null; card_last4: string | null }) =>
  row.card_brand && row.card_last4 ? cardText({ brand: row.card_brand, last4: row.card_last4 }) : 'card';

/** The lines of an account's statement, before they are grouped per person and summed. */
export function statementEntries(
  bookings: StatementBookingRow[],
  payments: StatementPaymentRow[],
  fees: StatementFeeRow[],
): Entry[] {
  const entry = (e: Omit<Entry, 'amount'>): Entry => ({ ...e, amount: Math.abs(e.signed) / 100 });
  return [
    ...bookings
      .filter((b) => b.live === 1)
      .map((b) =>
        entry({
          at: b.created_at,
          kind: 'charge',
          description: `${b.treatment}, ${displayDate(b.appointment_date)}`,
          bookingId: b.id,
          userId: b.user_id,
          signed: b.price_cents,
        }),
      ),
    ...payments.flatMap((p) => [
      entry({
        at: p.created_at,
        kind: 'payment',
        description: `Payment, ${paidWithText(p)}`,
        bookingId: p.booking_id,
        userId: p.user_id,
        signed: -p.amount_cents,
      }),
      ...(p.refund_status === 'succeeded'
        ? [
            entry({
              at: p.refund_updated_at ?? p.created_at,
              kind: 'refund',
              description: p.provider === 'desk' ? 'Refund, handed back at the desk' : `Refund to ${paidWithText(p)}`,
              bookingId: p.booking_id,
              userId: p.user_id,
              signed: p.refund_amount_cents ?? p.amount_cents,
            }),
          ]
        : []),
    ]),
    ...fees.flatMap((f) => {
      const name = `${FEE_NAMES[f.kind]}, ${f.treatment}`;
      const paid = f.transaction_id !== null && (f.status === 'charged' || f.status === 'paid' || f.refund_id !== null);
      return [
        // A waived fee is owed by nobody; what was taken for it and given back stays.
        ...(f.status === 'waived' || f.status === 'charging'
          ? []
          : [
              entry({
                at: f.created_at,
                kind: 'fee',
                description: name,
                bookingId: f.booking_id,
                userId: f.user_id,
                signed: f.amount_cents,
              }),
            ]),
        ...(paid
          ? [
              entry({
                at: f.updated_at,
                kind: 'payment',
                description: `Payment of the ${FEE_NAMES[f.kind].toLowerCase()}, ${card(f)}`,
                bookingId: f.booking_id,
                userId: f.user_id,
                signed: -f.amount_cents,
              }),
            ]
          : []),
        ...(f.refund_id !== null
          ? [
              entry({
                at: f.updated_at,
                kind: 'refund',
                description: `Refund of the waived ${FEE_NAMES[f.kind].toLowerCase()}, ${card(f)}`,
                bookingId: f.booking_id,
                userId: f.user_id,
                signed: f.amount_cents,
              }),
            ]
          : []),
      ];
    }),
  ];
}

/** GET /api/users/me/statement: the caller's account, the holder first, then each dependant. */
export async function getStatement(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  return json(await statementOf(env, { id: user.id, name: user.name }));
}

/**
 * GET /api/users/:id/statement (admin): the statement of the account patient `:id` belongs to (their
 * guardian's, for a dependant), for the front desk; the read is in the audit trail, as any staff read of a record.
 */
export async function getPatientStatement(
  request: Request & { params: Record<string, string> },
  env: Env,
): Promise<Response> {
  const admin = callerOf(request);
  const accountId = await accountOfPatient(env.DB, inputOf(request, 'GET /users/:id/statement').params.id);
  const account = accountId ? await userById(env.DB, accountId) : null;
  if (!account) throw new HttpError(404, 'No such patient');
  await auditEntry(env.DB, {
    actor: admin,
    action: 'record.read',
    target: { type: 'user', id: account.id, name: account.name },
    after: { statement: true },
  }).run();
  return json(await statementOf(env, account));
}

async function statementOf(env: Env, account: { id: string; name: string }): Promise<Statement> {
  const [bookings, payments, fees, dependants] = await Promise.all([
    statementBookings(env.DB, account.id, clock()),
    statementPayments(env.DB, account.id),
    statementFees(env.DB, account.id),
    dependantsOf(env.DB, account.id),
  ]);
  // At the same moment, what is owed comes before what pays it, and a payment before its refund.
  const entries = statementEntries(bookings, payments, fees).sort(
    (a, b) => a.at.localeCompare(b.at) || ORDER[a.kind] - ORDER[b.kind],
  );
  const people = [{ id: account.id, name: account.name }, ...dependants].map((person) => {
    let balance = 0;
    const lines = entries
      .filter((e) => e.userId === person.id)
      .map(({ userId: _, signed, ...line }) => {
        balance += signed;
        return { ...line, balance: balance / 100 };
      });
    return { patientId: person.id, name: person.name, lines, balance: balance / 100 };
  });
  const total = entries.reduce((sum, e) => sum + e.signed, 0);
  return { people, balance: total / 100, fees: fees.map(toFee) };
}
