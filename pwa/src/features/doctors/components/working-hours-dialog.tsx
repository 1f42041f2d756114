import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Modal } from '../../../components/modal.tsx';
import type { Doctor } from '../api/get-doctors.ts';
import {
  WorkingHoursFields,
  type WorkingHoursValues,
  workingHoursOf,
  workingHoursRules,
} from './working-hours-fields.tsx';

type WorkingHoursDialogProps = {
  doctor: Doctor;
  /** Saves the days and hours; resolves true once saved (false: refused, or waiting for "Save anyway"). */
  onSave(changes: ReturnType<typeof workingHoursOf>): Promise<boolean>;
  onClose(): void;
};

/** docs/product.md#manage-doctors: a doctor's working days and hours. */
export function WorkingHoursDialog({ doctor, onSave, onClose }: WorkingHoursDialogProps) {
  const titleId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<WorkingHoursValues>({
    defaultValues: { workingDays: doctor.workingDays.map(String), start: doctor.hours.start, end: doctor.hours.end },
  });

  const close = () => {
    if (!isSubmitting) onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    if (await onSave(workingHoursOf(values))) onClose();
  });

  return (
    <Modal labelledBy={titleId} onClose={close}>
      <h2 id={titleId} className="modal__title">
        Working hours of {doctor.name}
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={isSubmitting}>
        ×
      </button>
      <form className="modal__form" onSubmit={onSubmit} noValidate aria-busy={isSubmitting || undefined}>
        <WorkingHoursFields
          registrations={{
            workingDays: register('workingDays', workingHoursRules.workingDays),
            start: register('start'),
            end: register('end', workingHoursRules.end),
          }}
          errors={{ workingDays: errors.workingDays?.message, end: errors.end?.message }}
        />
        <div className="modal__actions">
          <button type="button" className="button" onClick={close} disabled={isSubmitting}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
