import { type ReactNode, useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { Spinner } from '../../../components/spinner.tsx';
import { payBySentence, policySentence } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { answerLink, bookFromLink, type LinkBooked, type LinkInfo, type Proposal, useLink } from '../api/link.ts';
import '../../waitlist/waitlist.css';
import '../links.css';
import { useLanguage } from '../../../lib/i18n.tsx';

type BookingLink = Extract<LinkInfo, { kind: 'booking' }>;
type RecallLink = Extract<LinkInfo, { kind: 'recall' }>;

/** e.g. "Thu, Dec 3", for a proposed time's day, in `locale`. */
const dayText = (isoDate: string, locale = 'en-US') =>
  new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );

/** A reminder's answer: one tap, no sign-in. */
function BookingAnswer({ token, link }: { token: string; link: BookingLink }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const t = useLanguage().t;
  const { booking, action } = link;
  if (action === 'book' || action === 'forms') return null;

  async function answer() {
    if (action === 'book' || action === 'forms') return;
    setBusy(true);
    setProblem(null);
    try {
      setDone((await answerLink(token, action)).message);
    } catch (cause) {
      setProblem(errorText(cause, t));
    } finally {
      setBusy(false);
    }
  }

  const blocked = action === 'cancel' && !booking.canCancel;
  return (
    <>
      <p className="offer__summary">
        {t('offer.summary', { treatment: booking.treatment, day: booking.date, slot: booking.slot })}
      </p>
      {booking.doctor && <p>{t('link.with', { doctor: booking.doctor })}</p>}
      {done ? (
        <p role="status" className="link__done">
          {done}
        </p>
      ) : blocked ? (
        <p role="status">{t('link.callToCancel', { phone: booking.clinicPhone })}</p>
      ) : (
        <>
          {action === 'confirm' && booking.confirmation === 'confirmed' && <p>{t('link.alreadyComing')}</p>}
          <div className="offer__actions">
            <button
              type="button"
              className={action === 'cancel' ? 'button button--danger' : 'button button--primary'}
              disabled={busy}
              aria-busy={busy}
              onClick={() => void answer()}
            >
              {t('link.button', { action })}
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
  const words = useLanguage();
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState<LinkBooked | null>(null);
  const search = new URLSearchParams(useSearch());
  const picked = search.get('date') && search.get('slot');
  // The time tapped in the mail first, then the others (whether it is still free, booking says).
  const chosen: Proposal | null = picked
    ? (link.proposals.find((p) => p.appointmentDate === search.get('date') && p.slot === search.get('slot')) ?? {
        appointmentDate: search.get('date') ?? '',
        date: dayText(search.get('date') ?? '', words.locale),
        slot: search.get('slot') ?? '',
        doctor: null,
      })
    : null;
  const proposals = chosen ? [chosen, ...link.proposals.filter((p) => p !== chosen)] : link.proposals;
  const [problem, setProblem] = useState<string | null>(null);

  async function choose(proposal: Proposal) {
    setBusy(true);
    setProblem(null);
    try {
      setBooked(await bookFromLink(token, proposal));
    } catch (cause) {
      setProblem(errorText(cause, words.t));
    } finally {
      setBusy(false);
    }
  }

  if (booked) {
    return (
      <>
        <p role="status" className="link__done">
          {booked.message}
          {booked.doctor && ` ${words.t('link.withLower', { doctor: booked.doctor })}`}.
        </p>
        <p>{policySentence(booked, words)}</p>
        {booked.payBy && <p className="callout">{payBySentence(booked.payBy, words)}</p>}
        {booked.payBy && (
          <Link href={`/dashboard/payment/${booked.insertedId}`} className="button button--primary">
            {words.t('booking.payNow')}
          </Link>
        )}
      </>
    );
  }
  return (
    <>
      <p className="offer__summary">
        {words.t('link.due', {
          treatment: link.recall.treatment,
          price: words.format.price(link.recall.price),
          day: dayText(link.recall.dueDate, words.locale),
        })}
      </p>
      {proposals.length === 0 ? (
        <p>
          {words.t('link.noneFree')} <Link href="/appointment">{words.t('link.another')}</Link>
          {words.t('link.orCall')}
        </p>
      ) : (
        <>
          <p id="proposals-hint">{words.t('link.oneTap')}</p>
          <ul className="link__proposals" aria-describedby="proposals-hint">
            {proposals.map((proposal) => (
              <li key={`${proposal.appointmentDate} ${proposal.slot}`}>
                <button
                  type="button"
                  className="button link__proposal"
                  disabled={busy}
                  onClick={() => void choose(proposal)}
                >
                  <span className="link__day">{dayText(proposal.appointmentDate, words.locale)}</span>
                  <span>{proposal.slot}</span>
                  {proposal.doctor && <span className="link__doctor">{proposal.doctor}</span>}
                </button>
              </li>
            ))}
          </ul>
          <Link href="/appointment">{words.t('link.anotherDay')}</Link>
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
  const t = useLanguage().t;

  let content: ReactNode;
  if (!link) {
    content = error ? (
      <p role="alert" className="form-error">
        {errorText(error, t)}
      </p>
    ) : (
      <Spinner label={t('link.opening')} />
    );
  } else if (link.kind === 'recall') {
    content = <RecallBooking token={token} link={link} />;
  } else {
    content = <BookingAnswer token={token} link={link} />;
  }

  return (
    <section className="offer-page" aria-labelledby="link-title">
      <h1 id="link-title">{t('link.title', { action: link?.action ?? 'none' })}</h1>
      {link && <p>{t('link.hello', { name: link.patientName })}</p>}
      <div className="offer__card">
        {content}
        <Link href="/dashboard">{t('mine.title')}</Link>
      </div>
    </section>
  );
}
