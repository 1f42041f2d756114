import { type SubmitEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { Link } from 'wouter';
import type { Arrangement, FamilyOptions, FamilyVisitBooked } from '../../../../../contract/family.ts';
import { labelStartText, startOfLabel } from '../../../../../contract/slot-label.ts';
import { Modal } from '../../../components/modal.tsx';
import { apiFetcher } from '../../../lib/api.ts';
import { payBySentence } from '../../../lib/booking-rules.ts';
import { client } from '../../../lib/client.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { pathOf } from '../../../lib/route-paths.ts';
import type { FamilyVisitProps } from '../api/family-visit.ts';

/** The confirmation, as a single booking's: each person's time, the total, until when to pay, and Pay now. */
function FamilyBooked({
  booked,
  displayDate,
  onClose,
}: {
  booked: FamilyVisitBooked;
  displayDate: string;
  onClose(): void;
}) {
  const total = booked.visits.reduce((sum, visit) => sum + visit.price, 0);
  const payBy = booked.visits.map((visit) => visit.payBy).find(Boolean);
  const first = booked.visits[0];
  const words = useLanguage();
  const { t, format } = words;
  return (
    <div className="family-visit__done" role="status">
      <p>{t('familyVisit.booked', { day: displayDate })}</p>
      <ul>
        {booked.visits.map((visit) => (
          <li key={visit._id}>
            {t('familyVisit.line', {
              name: visit.patientName,
              treatment: visit.treatment,
              slot: visit.slot,
              price: format.price(visit.price),
            })}
          </li>
        ))}
      </ul>
      <p>{t('familyVisit.total', { amount: format.price(total) })}</p>
      {payBy && total > 0 && <p>{payBySentence(payBy, words)}</p>}
      <div className="modal__actions">
        {payBy && total > 0 && first && (
          <Link href={`/dashboard/payment/${encodeURIComponent(first._id)}`} className="button button--primary">
            {t('booking.payNow')}
          </Link>
        )}
        <button type="button" className="button" onClick={onClose}>
          {t('common.done')}
        </button>
      </div>
    </div>
  );
}

/**
 * docs/product-booking.md#family: a family visit on the chosen day: who comes, for what, together or one
 * after another; the starts where everyone fits; one tap books them all (or nothing). The front
 * desk uses it too, for a caller's family (docs/product-admin.md#book-by-phone).
 */
export function FamilyVisitDialog({
  myName,
  family,
  treatments,
  isoDate,
  displayDate,
  desk,
  onClose,
}: FamilyVisitProps) {
  const ids = useId();
  // "me": the account holder, who needs no id (the server takes the caller, or the desk's account).
  const { t: say, format } = useLanguage();
  const people = [{ _id: 'me', name: desk ? myName : say('familyVisit.me', { name: myName }) }, ...family];
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [arrangement, setArrangement] = useState<Arrangement>('together');
  const [start, setStart] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [booked, setBooked] = useState<FamilyVisitBooked | null>(null);
  const members = people
    .filter((p) => chosen[p._id])
    .map((p) => ({ patientId: p._id, treatment: chosen[p._id] ?? '' }));
  const nameOf = (id: string) => people.find((p) => p._id === id)?.name ?? '';
  const priceOf = (treatmentId: string) => format.price(treatments.find((t) => t._id === treatmentId)?.price ?? 0);
  const key =
    members.length >= 2
      ? pathOf('GET /appointmentOptions/family', {
          query: {
            date: isoDate,
            arrangement,
            members: members.map((m) => `${m.patientId}:${m.treatment}`).join(','),
            accountId: desk?.accountId,
          },
        })
      : null;
  const { data: options, error } = useSWR<FamilyOptions>(key, apiFetcher<FamilyOptions>);
  const starts = options?.starts ?? [];
  const chosenStart = starts.includes(start) ? start : (starts[0] ?? '');

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosenStart || members.length < 2) return;
    setBusy(true);
    setProblem(null);
    try {
      const visit = {
        appointmentDate: isoDate,
        start: chosenStart,
        arrangement,
        members: members.map((m) =>
          m.patientId === 'me' ? (desk ? { ...m, patientId: desk.accountId } : { treatment: m.treatment }) : m,
        ),
      };
      const answer = desk
        ? await client('POST /phone-bookings/family', {
            body: { ...visit, accountId: desk.accountId, phone: desk.phone, payment: 'clinic' },
          })
        : await client('POST /bookings/family', { body: visit });
      if (desk) {
        desk.onBooked(answer.message);
        return;
      }
      setBooked(answer);
    } catch (cause) {
      setProblem(errorText(cause, say));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal labelledBy={`${ids}-title`} onClose={onClose} wide>
      <h2 id={`${ids}-title`} className="modal__title">
        {say('familyVisit.title', { day: displayDate })}
      </h2>
      <button type="button" className="modal__close" aria-label={say('common.close')} onClick={onClose}>
        ×
      </button>
      {booked ? (
        <FamilyBooked booked={booked} displayDate={displayDate} onClose={onClose} />
      ) : (
        <form className="modal__form" onSubmit={(event) => void submit(event)} noValidate>
          <fieldset className="family-visit__people">
            <legend>{say('familyVisit.who')}</legend>
            {people.map((person) => (
              <div className="field" key={person._id}>
                <label htmlFor={`${ids}-${person._id}`}>{person.name}</label>
                <select
                  id={`${ids}-${person._id}`}
                  value={chosen[person._id] ?? ''}
                  onChange={(event) => setChosen((current) => ({ ...current, [person._id]: event.target.value }))}
                >
                  <option value="">{say('familyVisit.notComing')}</option>
                  {treatments.map((t) => (
                    <option key={t._id} value={t._id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </fieldset>
          <fieldset className="family-visit__arrangement">
            <legend>{say('familyVisit.how')}</legend>
            <label className="checkbox">
              <input
                type="radio"
                name={`${ids}-arrangement`}
                checked={arrangement === 'together'}
                onChange={() => setArrangement('together')}
              />
              {say('familyVisit.together')}
            </label>
            <label className="checkbox">
              <input
                type="radio"
                name={`${ids}-arrangement`}
                checked={arrangement === 'back-to-back'}
                onChange={() => setArrangement('back-to-back')}
              />
              {say('familyVisit.backToBack')}
            </label>
          </fieldset>
          {members.length < 2 ? (
            <p className="field__hint">{say('familyVisit.twoOrMore')}</p>
          ) : error ? (
            <p className="field__error" role="alert">
              {errorText(error, say)}
            </p>
          ) : options && starts.length === 0 ? (
            <div role="status" className="family-visit__none">
              <p>{say('familyVisit.noneFits', { reason: options.reason ?? say('familyVisit.allTaken') })}</p>
              {options.suggestion && (
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    const { suggestion } = options;
                    if (!suggestion) return;
                    setArrangement(suggestion.arrangement);
                    setStart(startOfLabel(suggestion.slot) ?? '');
                  }}
                >
                  {say('familyVisit.suggestion', {
                    arrangement: options.suggestion.arrangement === 'back-to-back' ? 'after' : 'together',
                    time: labelStartText(options.suggestion.slot),
                  })}
                </button>
              )}
            </div>
          ) : (
            <div className="field">
              <label htmlFor={`${ids}-slot`}>{say('familyVisit.start')}</label>
              <select id={`${ids}-slot`} value={chosenStart} onChange={(event) => setStart(event.target.value)}>
                {starts.map((s, i) => (
                  <option key={s} value={s}>
                    {options?.spans[i] ?? s}
                  </option>
                ))}
              </select>
            </div>
          )}
          {members.length >= 2 && (
            <p className="family-visit__total">
              {members.map((m) => `${nameOf(m.patientId)}: ${priceOf(m.treatment)}`).join(' · ')}.{' '}
              {say('familyVisit.total', {
                amount: format.price(
                  members.reduce((sum, m) => sum + (treatments.find((t) => t._id === m.treatment)?.price ?? 0), 0),
                ),
              })}
            </p>
          )}
          {problem && (
            <p className="field__error" role="alert">
              {problem}
            </p>
          )}
          <div className="modal__actions">
            <button type="button" className="button" onClick={onClose}>
              {say('familyVisit.cancel')}
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={busy || !chosenStart || members.length < 2}
              aria-busy={busy}
            >
              {say('familyVisit.submit')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
