import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { NewTreatment } from '../../../../../contract/treatments.ts';
import { Field } from '../../../components/field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { contractResolver, numberOf } from '../../../lib/contract-form.ts';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { PAYMENT_RULE_CHOICES, type PaymentRule } from '../../../lib/payment-rules.ts';
import { lengthText, TREATMENT_LENGTHS } from '../../../lib/schedule-text.ts';
import { useTreatmentSpecialties } from '../api/specialties.ts';
import { addTreatment, type Treatment, updateTreatment } from '../api/treatments.ts';

type TreatmentFormValues = {
  name: string;
  price: string;
  durationMinutes: string;
  specialty: string;
  active: boolean;
  recallMonths: string;
  payment: PaymentRule;
  depositPercent: string;
};

/** The recall intervals offered: none, or 1 to 24 months (the six-month cleaning, the three-month periodontal check). */
const RECALL_CHOICES = [
  { value: '', label: 'No recall' },
  ...[1, 2, 3, 4, 6, 9, 12, 18, 24].map((months) => ({
    value: String(months),
    label: `Every ${months} month${months === 1 ? '' : 's'}`,
  })),
];

/**
 * docs/product-admin.md#treatments: the form as the body of POST /api/treatments, checked with the
 * contract's schema, the one the server parses it with (a price may be typed with its "$").
 */
const resolver = contractResolver(NewTreatment, (values: TreatmentFormValues) => ({
  name: values.name,
  price: numberOf(values.price.trim().replace(/^\$/, '')),
  durationMinutes: Number(values.durationMinutes),
  specialty: values.specialty,
  active: values.active,
  recallMonths: values.recallMonths === '' ? null : Number(values.recallMonths),
  payment: values.payment,
  // A deposit's share, when left empty, is reported on its field (not as a problem of the whole form).
  depositPercent: values.payment === 'deposit' ? (numberOf(values.depositPercent) ?? Number.NaN) : null,
}));

type NewTreatmentBody = v.InferOutput<typeof NewTreatment>;

type TreatmentDialogProps = {
  /** The treatment to edit; null adds a new one. */
  treatment: Treatment | null;
  onClose(): void;
};

/** docs/product-admin.md#treatments: add or edit a treatment's name, price, length, specialty and whether patients can book it. */
export function TreatmentDialog({ treatment, onClose }: TreatmentDialogProps) {
  const titleId = useId();
  const { data: specialties, error: specialtiesError } = useTreatmentSpecialties();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<TreatmentFormValues, unknown, NewTreatmentBody>({
    resolver,
    defaultValues: treatment
      ? {
          name: treatment.name,
          price: String(treatment.price),
          durationMinutes: String(treatment.durationMinutes),
          specialty: treatment.specialty,
          active: treatment.active,
          recallMonths: treatment.recallMonths === null ? '' : String(treatment.recallMonths),
          payment: treatment.payment,
          depositPercent: treatment.depositPercent === null ? '' : String(treatment.depositPercent),
        }
      : {
          name: '',
          price: '',
          durationMinutes: '30',
          specialty: '',
          active: true,
          recallMonths: '',
          payment: 'full',
          depositPercent: '',
        },
  });
  const deposit = watch('payment') === 'deposit';

  const close = () => {
    if (!isSubmitting) onClose();
  };

  const onSubmit = handleSubmit(async (fields) => {
    try {
      if (treatment) await updateTreatment(treatment._id, fields);
      else await addTreatment(fields);
      notify.success(treatment ? `${fields.name} saved` : `${fields.name} added`);
      onClose();
    } catch (cause) {
      logUnexpected(cause);
      notify.error(errorText(cause));
    }
  });

  // The treatment's own specialty stays listed while the list loads (or if it was renamed meanwhile).
  const specialtyNames = specialties?.map((s) => s.name) ?? [];
  if (treatment && !specialtyNames.includes(treatment.specialty)) specialtyNames.unshift(treatment.specialty);

  return (
    <Modal labelledBy={titleId} onClose={close}>
      <h2 id={titleId} className="modal__title">
        {treatment ? `Edit ${treatment.name}` : 'Add treatment'}
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={isSubmitting}>
        ×
      </button>
      <form className="modal__form" onSubmit={onSubmit} noValidate aria-busy={isSubmitting || undefined}>
        <Field label="Name" autoComplete="off" registration={register('name')} error={errors.name?.message} />
        <Field
          label="Price ($)"
          inputMode="decimal"
          autoComplete="off"
          registration={register('price')}
          error={errors.price?.message}
        />
        <Field
          label="Length"
          options={TREATMENT_LENGTHS.map((minutes) => ({ value: String(minutes), label: lengthText(minutes) }))}
          registration={register('durationMinutes')}
        />
        <Field
          label="Specialty"
          prompt="Please select a Specialty"
          options={specialtyNames.map((name) => ({ value: name, label: name }))}
          registration={register('specialty')}
          error={errors.specialty?.message}
        />
        {specialtiesError && (
          <p className="field__error" role="alert">
            The specialties could not be loaded: {errorText(specialtiesError)}
          </p>
        )}
        <Field
          label="Recall"
          hint="After a visit marked attended, the patient is due again this much later, and gets a message to book."
          options={
            treatment?.recallMonths && !RECALL_CHOICES.some((c) => c.value === String(treatment.recallMonths))
              ? [
                  ...RECALL_CHOICES,
                  { value: String(treatment.recallMonths), label: `Every ${treatment.recallMonths} months` },
                ]
              : RECALL_CHOICES
          }
          registration={register('recallMonths')}
        />
        <Field
          label="Payment"
          hint="How a patient who books it online pays. A card on file keeps the visit without paying ahead; the clinic's no-show and late-cancellation fees may be charged to it."
          options={PAYMENT_RULE_CHOICES}
          registration={register('payment')}
        />
        {deposit && (
          <Field
            label="Deposit (% of the price)"
            inputMode="numeric"
            autoComplete="off"
            registration={register('depositPercent')}
            error={errors.depositPercent?.message}
          />
        )}
        <label className="checkbox">
          <input type="checkbox" {...register('active')} />
          Active: patients can book it
        </label>
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
