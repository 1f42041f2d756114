import { type SubmitEvent, useId, useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { minutesOf, QUARTER_HOURS, WEEKDAYS } from '../../../lib/schedule-text.ts';
import type { Doctor } from '../api/get-doctors.ts';
import { useSpecialties } from '../api/get-specialties.ts';
import type { DoctorChanges } from '../api/update-doctor.ts';
import { photoProblem, uploadPhoto } from '../api/upload-photo.ts';
import { usePreviewUrl } from './use-preview-url.ts';

/** One weekday's row of the form: whether they work it, and from when to when. */
type DayRow = { works: boolean; start: string; end: string };

/** The doctor's week as the form's rows, by weekday number; a day off starts on the clinic's usual hours. */
function rowsOf(doctor: Doctor): Record<number, DayRow> {
  const rows: Record<number, DayRow> = {};
  for (const { day } of WEEKDAYS) {
    const hours = doctor.weeklyHours.find((h) => h.weekday === day);
    rows[day] = hours
      ? { works: true, start: hours.start, end: hours.end }
      : { works: false, start: '09:00', end: '17:00' };
  }
  return rows;
}

type DoctorDialogProps = {
  doctor: Doctor;
  /** Saves the changes; resolves true once saved (false: refused, or waiting for "Save anyway"). */
  onSave(changes: DoctorChanges): Promise<boolean>;
  onClose(): void;
};

/**
 * docs/product-admin.md#manage-doctors: everything about a doctor the owner may change: their name,
 * specialty, photo (uploaded on Save; the old one is deleted) and their hours on each weekday
 * ("Mon 09:00–13:00, Wed 12:00–18:00").
 */
export function DoctorDialog({ doctor, onSave, onClose }: DoctorDialogProps) {
  const ids = useId();
  const { data: specialties } = useSpecialties();
  const [name, setName] = useState(doctor.name);
  const [specialty, setSpecialty] = useState(doctor.specialty);
  const [photo, setPhoto] = useState<File | undefined>();
  const [rows, setRows] = useState(() => rowsOf(doctor));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const preview = usePreviewUrl(photo && !photoProblem(photo) ? photo : undefined);

  const close = () => {
    if (!saving) onClose();
  };
  const setRow = (day: number, change: Partial<DayRow>) =>
    setRows((current) => ({ ...current, [day]: { ...(current[day] as DayRow), ...change } }));

  /** The first thing that stops a save, in plain words; null when none does. */
  function check(): string | null {
    if (!name.trim()) return 'Enter the doctor’s name';
    if (photo && photoProblem(photo)) return photoProblem(photo);
    const working = WEEKDAYS.filter(({ day }) => rows[day]?.works);
    if (working.length === 0) return 'Choose at least one working day';
    const wrong = working.find(({ day }) => minutesOf(rows[day]?.end ?? '') <= minutesOf(rows[day]?.start ?? ''));
    return wrong ? `${wrong.name}: the end must be later than the start` : null;
  }

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = check();
    setProblem(found);
    if (found) return;
    setSaving(true);
    try {
      const image = photo ? await uploadPhoto(photo) : undefined;
      const weeklyHours = WEEKDAYS.filter(({ day }) => rows[day]?.works).map(({ day }) => ({
        weekday: day,
        start: rows[day]?.start ?? '09:00',
        end: rows[day]?.end ?? '17:00',
      }));
      const saved = await onSave({
        ...(name.trim() !== doctor.name ? { name: name.trim() } : {}),
        ...(specialty !== doctor.specialty ? { specialty } : {}),
        ...(image ? { image } : {}),
        weeklyHours,
      });
      setSaving(false);
      if (saved) onClose();
    } catch (cause) {
      setProblem(errorText(cause));
      setSaving(false);
    }
  }

  return (
    <Modal labelledBy={`${ids}-title`} onClose={close}>
      <h2 id={`${ids}-title`} className="modal__title">
        Edit {doctor.name}
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={saving}>
        ×
      </button>
      <form className="modal__form doctor-edit" onSubmit={handleSubmit} noValidate aria-busy={saving || undefined}>
        <div className="field">
          <label htmlFor={`${ids}-name`}>Name</label>
          <input
            id={`${ids}-name`}
            maxLength={100}
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-specialty`}>Specialty</label>
          <select id={`${ids}-specialty`} value={specialty} onChange={(event) => setSpecialty(event.target.value)}>
            {(specialties ?? [{ _id: '', name: doctor.specialty }]).map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field doctor-edit__photo">
          <img src={preview ?? doctor.image} alt="" width={64} height={64} className="doctor-avatar" />
          <div className="field">
            <label htmlFor={`${ids}-photo`}>New photo (optional)</label>
            <input
              id={`${ids}-photo`}
              type="file"
              accept="image/*"
              aria-describedby={`${ids}-photo-hint`}
              onChange={(event) => setPhoto(event.target.files?.[0])}
            />
            <p id={`${ids}-photo-hint`} className="field__hint">
              JPEG, PNG, WebP, GIF or AVIF, at most 2 MB.
            </p>
          </div>
        </div>
        <fieldset className="doctor-edit__week">
          <legend>Hours on each day</legend>
          {WEEKDAYS.map(({ day, name: dayName }) => {
            const row = rows[day] as DayRow;
            return (
              <div key={day} className="doctor-edit__day">
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={row.works}
                    onChange={(event) => setRow(day, { works: event.target.checked })}
                  />
                  {dayName}
                </label>
                <select
                  aria-label={`${dayName} starts at`}
                  value={row.start}
                  disabled={!row.works}
                  onChange={(event) => setRow(day, { start: event.target.value })}
                >
                  {QUARTER_HOURS.map((time) => (
                    <option key={time}>{time}</option>
                  ))}
                </select>
                <span aria-hidden="true">–</span>
                <select
                  aria-label={`${dayName} ends at`}
                  value={row.end}
                  disabled={!row.works}
                  onChange={(event) => setRow(day, { end: event.target.value })}
                >
                  {QUARTER_HOURS.map((time) => (
                    <option key={time}>{time}</option>
                  ))}
                </select>
              </div>
            );
          })}
        </fieldset>
        {problem && (
          <p className="field__error" role="alert">
            {problem}
          </p>
        )}
        <div className="modal__actions">
          <button type="button" className="button" onClick={close} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
