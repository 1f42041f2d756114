import { format } from 'date-fns/format';
import { useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { Field } from '../../../components/field.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { KeptBookingsNotice, StrandedConflictDialog } from '../../../components/stranded-bookings.tsx';
import { useConfirmedAction } from '../../../components/use-confirmed-action.ts';
import { useScheduleChange } from '../../../components/use-schedule-change.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  addClosure,
  type Closure,
  deleteClosure,
  type NewClosure,
  useClosureDoctors,
  useClosures,
} from '../api/closures.ts';

type ClosureFormValues = { from: string; to: string; reason: string; doctorId: string };
const EMPTY: ClosureFormValues = { from: '', to: '', reason: '', doctorId: '' };

/** "Dec 24, 2026", or "Dec 24, 2026 – Dec 26, 2026" for a range. */
export function closureDates({ from, to }: { from: string; to: string }): string {
  const pp = (iso: string) => format(new Date(`${iso}T00:00:00`), 'PP');
  return from === to ? pp(from) : `${pp(from)} – ${pp(to)}`;
}

/**
 * docs/product-admin.md#clinic-hours-and-closures: the closures (a day or a range, a reason, the whole clinic
 * or one doctor), Add and Delete. A closure over upcoming bookings is refused with the list of
 * them; the desk keeps them for review or cancels them, and either way each patient is told.
 */
export function ClosuresSection() {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { data: closures, error, isValidating, mutate } = useClosures();
  const { data: doctors } = useClosureDoctors();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ClosureFormValues>({ defaultValues: EMPTY });
  const change = useScheduleChange<NewClosure>({
    run: addClosure,
    canCancel: true,
    successText: () => 'Closure added',
    onDone: () => reset(EMPTY),
  });
  const deletion = useConfirmedAction({
    run: (closure: Closure) => deleteClosure(closure._id),
    successText: () => 'Closure deleted',
    focusAfter: headingRef,
  });

  const onSubmit = handleSubmit(async ({ from, to, reason, doctorId }) => {
    await change.submit({
      from,
      to: to || from,
      reason: reason.trim(),
      ...(doctorId ? { doctorId } : {}),
    });
  });

  const columns: Column<Closure>[] = [
    positionColumn,
    { header: 'Dates', className: 'schedule-table__wrap', cell: closureDates },
    { header: 'Reason', className: 'schedule-table__wrap', cell: (closure) => closure.reason },
    {
      header: 'Closed for',
      cell: (closure) => (closure.doctorId ? (closure.doctor ?? 'A former doctor') : 'Whole clinic'),
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (closure) => (
        <button type="button" className="button button--small button--danger" onClick={() => deletion.ask(closure)}>
          Delete
        </button>
      ),
    },
  ];

  const toDelete = deletion.pending;
  return (
    <section className="schedule-section" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        Closures
      </h2>
      <p className="schedule-page__intro">
        Holidays and days off: nobody can book the whole clinic, or one doctor, on these days.
      </p>
      {error && (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          The closures could not be loaded: {errorText(error)}
        </LoadError>
      )}
      {!closures ? (
        !error && <Spinner label="Loading closures" />
      ) : closures.length === 0 ? (
        <p className="schedule-empty">No closures.</p>
      ) : (
        <DataTable
          caption="Closures"
          className="schedule-table"
          columns={columns}
          rows={closures}
          rowKey={(closure) => closure._id}
        />
      )}

      <KeptBookingsNotice change={change} />
      <form
        className="schedule-form closure-form"
        onSubmit={onSubmit}
        noValidate
        aria-label="Add a closure"
        aria-busy={isSubmitting || undefined}
      >
        <Field
          label="First day"
          type="date"
          registration={register('from', { required: 'first day is required' })}
          error={errors.from?.message}
        />
        <Field
          label="Last day (empty: one day)"
          type="date"
          registration={register('to', {
            validate: (to, form) => !to || !form.from || to >= form.from || 'the last day must not be before the first',
          })}
          error={errors.to?.message}
        />
        <Field
          label="Reason"
          autoComplete="off"
          registration={register('reason', {
            validate: (value) => value.trim() !== '' || 'reason is required',
            maxLength: { value: 200, message: 'reason must be at most 200 characters' },
          })}
          error={errors.reason?.message}
        />
        <Field
          label="Closed for"
          options={[
            { value: '', label: 'Whole clinic' },
            ...(doctors ?? []).map((doctor) => ({ value: doctor._id, label: doctor.name })),
          ]}
          registration={register('doctorId')}
        />
        <button type="submit" className="button button--primary schedule-form__submit" disabled={isSubmitting}>
          {isSubmitting ? 'Adding…' : 'Add closure'}
        </button>
      </form>

      <StrandedConflictDialog change={change} confirmLabel="Keep them for review" />
      {toDelete && (
        <ConfirmDialog
          title={`Delete the closure “${toDelete.reason}”?`}
          busy={deletion.busy}
          onConfirm={deletion.confirm}
          onCancel={deletion.cancel}
        >
          <p>Patients can book {closureDates(toDelete)} again.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
