import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { PAYMENT_RULE_CHOICES, type PaymentRule } from '../../../lib/payment-rules.ts';
import { lengthText, TREATMENT_LENGTHS } from '../../../lib/schedule-text.ts';
import { useTreatmentSpecialties } from '../api/specialties.ts';
import { addTreatment, type NewTreatment, type Treatment, updateTreatment } from '../api/treatments.ts';

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

const PRICE_SHAPE = /^\d+(\.\d{1,2})?$/;

/** docs/product-admin.md#treatments: the price as typed, checked the way the server checks it. */
function priceProblem(value: string): string | true {
  const price = value.trim().replace(/^\$/, '');
  if (price === '') return 'price is required';
  if (price.startsWith('-')) return 'price must not be negative';
  if (!/^\d+(\.\d+)?$/.test(price)) return 'price must be a number of dollars, like 80 or 99.50';
  if (!PRICE_SHAPE.test(price)) return 'price must have at most two decimals';
  return Number(price) <= 100_000 || 'price must be at most 100000';
}

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
  } = useForm<TreatmentFormValues>({
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

  const onSubmit = handleSubmit(async (values) => {
    const fields: NewTreatment = {
      name: values.name.trim(),
      price: Number(values.price.trim().replace(/^\$/, '')),
      durationMinutes: Number(values.durationMinutes),
      specialty: values.specialty,
      active: values.active,
      recallMonths: values.recallMonths === '' ? null : Number(values.recallMonths),
      payment: values.payment,
      depositPercent: values.payment === 'deposit' ? Number(values.depositPercent) : null,
    };
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
        <FormField
          label="Name"
          autoComplete="off"
          registration={register('name', {
            validate: (value) => value.trim() !== '' || 'name is required',
            maxLength: { value: 100, message: 'name must be at most 100 characters' },
          })}
          error={errors.name?.message}
        />
        <FormField
          label="Price ($)"
          inputMode="decimal"
          autoComplete="off"
          registration={register('price', { validate: priceProblem })}
          error={errors.price?.message}
        />
        <SelectField
          label="Length"
          options={TREATMENT_LENGTHS.map((minutes) => ({ value: String(minutes), label: lengthText(minutes) }))}
          registration={register('durationMinutes')}
        />
        <SelectField
          label="Specialty"
          prompt="Please select a Specialty"
          options={specialtyNames.map((name) => ({ value: name, label: name }))}
          registration={register('specialty', { required: 'specialty is required' })}
          error={errors.specialty?.message}
        />
        {specialtiesError && (
          <p className="field__error" role="alert">
            The specialties could not be loaded: {errorText(specialtiesError)}
          </p>
        )}
        <SelectField
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
        <SelectField
          label="Payment"
          hint="How a patient who books it online pays. A card on file keeps the visit without paying ahead; the clinic's no-show and late-cancellation fees may be charged to it."
          options={PAYMENT_RULE_CHOICES}
          registration={register('payment')}
        />
        {deposit && (
          <FormField
            label="Deposit (% of the price)"
            inputMode="numeric"
            autoComplete="off"
            registration={register('depositPercent', {
              validate: (value) =>
                (/^\d{1,2}$/.test(value.trim()) && Number(value) >= 1) || 'depositPercent must be 1 to 99',
            })}
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
