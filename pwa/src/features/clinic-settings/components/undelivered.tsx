import { format } from 'date-fns/format';
import { useId, useState } from 'react';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useDeadEvents, useReplayDeadEvent } from '../api/dead-events.ts';

/**
 * The changes whose consequences (a mail or text to the patient, an offer to the waitlist) still
 * failed after the queue's retries (docs/architecture.md#domain-events): each in words, with a
 * button that tries it again. Nothing is done twice: what already happened is skipped.
 */
export function Undelivered() {
  const { data: dead, error } = useDeadEvents();
  const replay = useReplayDeadEvent();
  const [sending, setSending] = useState<number | null>(null);
  const id = useId();
  if (error) throw error;

  async function sendAgain(seq: number) {
    setSending(seq);
    try {
      await replay(seq);
      notify.success('Sent again');
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setSending(null);
    }
  }

  return (
    <section className="settings__form undelivered" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Messages that could not be sent</h2>
      {!dead ? null : dead.length === 0 ? (
        <p className="settings__help">Everything was sent: mails, texts and waitlist offers.</p>
      ) : (
        <>
          <p className="settings__help">
            These changes were made, but what should have followed them (a mail or text to the patient, an offer to the
            waitlist) failed after several tries. Send them again once the cause is fixed.
          </p>
          <ul className="undelivered__list">
            {dead.map((event) => (
              <li key={event.seq} className="undelivered__item">
                <span>
                  {event.what}{' '}
                  <small>
                    (<time dateTime={event.at}>{format(new Date(event.at), 'PP, p')}</time>, tried {event.attempts}{' '}
                    times)
                  </small>
                </span>
                <button
                  type="button"
                  className="button"
                  onClick={() => sendAgain(event.seq)}
                  disabled={sending !== null}
                  aria-busy={sending === event.seq}
                  aria-label={`Send again: ${event.what}`}
                >
                  Send again
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
