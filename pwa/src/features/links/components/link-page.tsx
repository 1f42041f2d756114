import { type ReactNode, useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { payBySentence, policySentence } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { answerLink, bookFromLink, type LinkBooked, type LinkInfo, type Proposal, useLink } from '../api/link.ts';
import '../../waitlist/waitlist.css';
import '../links.css';
import { useLanguage } from '../../../lib/i18n.tsx';

type BookingLink = Extract<LinkInfo, { kind: 'booking' }>;
type RecallLink = Extract<LinkInfo, { kind: 'recall' }>;

const ACTION_BUTTON = { confirm: "Yes, I'm coming", callback: 'Please call me', cancel: 'Cancel this visit' } as const;
const ACTION_TITLE = {
  confirm: 'Are you coming?',
  callback: 'Should the clinic call you?',
  cancel: 'Cancel your visit?',
  book: 'Choose a time',
  forms: 'Your forms',
} as const;

/** e.g. "Thu, Dec 3", for a proposed time's day. */
const dayText = (isoDate: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );

/** A reminder's answer: one tap, no sign-in. */
function BookingAnswer({ token, link }: { token: string; link: BookingLink }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { booking, action } = link;
  if (action === 'book' || action === 'forms') return null;

  async function answer() {
    if (action === 'book' || action === 'forms') return;
    setBusy(true);
    setProblem(null);
    try {
      setDone((await answerLink(token, action)).message);
    } catch (cause) {
      setProblem(errorText(cause));
    } finally {
      setBusy(false);
    }
  }

  const blocked = action === 'cancel' && !booking.canCancel;
  return (
    <>
      <p className="offer__summary">
        {booking.treatment} on {booking.date} at {booking.slot}
      </p>
      {booking.doctor && <p>With {booking.doctor}</p>}
      {done ? (
        <p role="status" className="link__done">
          {done}
        </p>
      ) : blocked ? (
        <p role="status">
          This visit can no longer be cancelled online; please call the clinic at {booking.clinicPhone}.
        </p>
      ) : (
        <>
          {action === 'confirm' && booking.confirmation === 'confirmed' && (
            <p>You have already told us you are coming.</p>
          )}
          <div className="offer__actions">
            <button
              type="button"
              className={action === 'cancel' ? 'button button--danger' : 'button button--primary'}
              disabled={busy}
              aria-busy={busy}
              onClick={() => void answer()}
            >
              {ACTION_BUTTON[action]}
            </button>
          </div>
        </>
      )}
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
    </>
  );
}

/** A recall's proposed times: one tap books; the time chosen in the mail comes first. */
function RecallBooking({ token, link }: { token: string; link: RecallLink }) {
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState<LinkBooked | null>(null);
  const search = new URLSearchParams(useSearch());
  const picked = search.get('date') && search.get('slot');
  // The time tapped in the mail first, then the others (whether it is still free, booking says).
  const chosen: Proposal | null = picked
    ? (link.proposals.find((p) => p.appointmentDate === search.get('date') && p.slot === search.get('slot')) ?? {
        appointmentDate: search.get('date') ?? '',
        date: dayText(search.get('date') ?? ''),
        slot: search.get('slot') ?? '',
        doctor: null,
      })
    : null;
  const proposals = chosen ? [chosen, ...link.proposals.filter((p) => p !== chosen)] : link.proposals;
  const [problem, setProblem] = useState<string | null>(null);
  const words = useLanguage();

  async function choose(proposal: Proposal) {
    setBusy(true);
    setProblem(null);
    try {
      setBooked(await bookFromLink(token, proposal));
    } catch (cause) {
      setProblem(errorText(cause));
    } finally {
      setBusy(false);
    }
  }

  if (booked) {
    return (
      <>
        <p role="status" className="link__done">
          {booked.message}
          {booked.doctor && ` with ${booked.doctor}`}.
        </p>
        <p>{policySentence(booked, words)}</p>
        {booked.payBy && <p className="callout">{payBySentence(booked.payBy, words)}</p>}
        {booked.payBy && (
          <Link href={`/dashboard/payment/${booked.insertedId}`} className="button button--primary">
            Pay now
          </Link>
        )}
      </>
    );
  }
  return (
    <>
      <p className="offer__summary">
        Your {link.recall.treatment} ({formatPrice(link.recall.price)}) is due on {dayText(link.recall.dueDate)}.
      </p>
      {proposals.length === 0 ? (
        <p>
          No time near that date is free online. <Link href="/appointment">Choose another date</Link>, or call the
          clinic.
        </p>
      ) : (
        <>
          <p id="proposals-hint">One tap books the time:</p>
          <ul className="link__proposals" aria-describedby="proposals-hint">
            {proposals.map((proposal) => (
              <li key={`${proposal.appointmentDate} ${proposal.slot}`}>
                <button
                  type="button"
                  className="button link__proposal"
                  disabled={busy}
                  onClick={() => void choose(proposal)}
                >
                  <span className="link__day">{dayText(proposal.appointmentDate)}</span>
                  <span>{proposal.slot}</span>
                  {proposal.doctor && <span className="link__doctor">{proposal.doctor}</span>}
                </button>
              </li>
            ))}
          </ul>
          <Link href="/appointment">Another day</Link>
        </>
      )}
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
    </>
  );
}

/**
 * docs/product-booking.md#links-in-messages, /l/:token: a link from a reminder or a recall message. Opening
 * it changes nothing; one tap confirms, asks for a call, cancels, or books a proposed time.
 */
export function LinkPage() {
  const { token } = useParams<{ token: string }>();
  const { data: link, error } = useLink(token);

  let content: ReactNode;
  if (!link) {
    content = error ? (
      <p role="alert" className="form-error">
        {errorText(error)}
      </p>
    ) : (
      <Spinner label="Opening the link" />
    );
  } else if (link.kind === 'recall') {
    content = <RecallBooking token={token} link={link} />;
  } else {
    content = <BookingAnswer token={token} link={link} />;
  }

  return (
    <section className="offer-page" aria-labelledby="link-title">
      <h1 id="link-title">{link ? ACTION_TITLE[link.action] : 'Your visit'}</h1>
      {link && <p>Hello {link.patientName},</p>}
      <div className="offer__card">
        {content}
        <Link href="/dashboard">My Appointments</Link>
      </div>
    </section>
  );
}
