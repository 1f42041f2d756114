import { useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { Field } from '../../../components/field.tsx';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { addDoctor } from '../api/add-doctor.ts';
import { useSpecialties } from '../api/get-specialties.ts';
import { photoProblem, uploadPhoto } from '../api/upload-photo.ts';
import { usePreviewUrl } from './use-preview-url.ts';
import './doctors.css';
import {
  DEFAULT_WORKING_HOURS,
  WorkingHoursFields,
  type WorkingHoursValues,
  workingHoursOf,
  workingHoursRules,
} from './working-hours-fields.tsx';

type DoctorFormValues = WorkingHoursValues & {
  name: string;
  email: string;
  specialty: string;
  photo: FileList | undefined;
};

// A plain shape check; the Worker decides (its 400 message is then shown in a toast).
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * docs/product-admin.md#add-a-doctor (admin): Name, Email, Specialty, Photo, working days and hours; the
 * photo is uploaded first, then the doctor saved.
 */
export function AddDoctorPage() {
  const [, navigate] = useLocation();
  const { data: specialties, error: specialtiesError } = useSpecialties();
  // The last photo uploaded and its URL: a retry after a refused save (e.g. a duplicate email) reuses it.
  const uploaded = useRef<{ file: File; url: string } | null>(null);
  const {
    register,
    handleSubmit,
    trigger,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<DoctorFormValues>({
    defaultValues: { name: '', email: '', specialty: '', photo: undefined, ...DEFAULT_WORKING_HOURS },
  });

  const photo = watch('photo')?.[0];
  const previewUrl = usePreviewUrl(photo && !photoProblem(photo) ? photo : undefined);

  const photoId = useId();
  const photoField = register('photo', {
    validate: (files) => {
      const file = files?.[0];
      if (!file) return 'Photo is required';
      return photoProblem(file) ?? true;
    },
  });

  const onSubmit = handleSubmit(async ({ name, email, specialty, photo: files, ...week }) => {
    const file = files?.[0];
    if (!file) return; // validated above
    try {
      const url = uploaded.current?.file === file ? uploaded.current.url : await uploadPhoto(file);
      uploaded.current = { file, url };
      await addDoctor({ name: name.trim(), email: email.trim(), specialty, image: url, ...workingHoursOf(week) });
      notify.success('success added a doctor');
      navigate('/dashboard/manage-doctors');
    } catch (cause) {
      logUnexpected(cause);
      notify.error(errorText(cause));
    }
  });

  return (
    <section className="dashboard-page" aria-labelledby="add-doctor-title">
      <h1 id="add-doctor-title">Add A Doctor</h1>
      <form className="doctor-form" onSubmit={onSubmit} noValidate aria-busy={isSubmitting || undefined}>
        <Field
          label="Name"
          autoComplete="off"
          registration={register('name', {
            required: 'name is required',
            validate: (value) => value.trim() !== '' || 'name is required',
            maxLength: { value: 100, message: 'name must be at most 100 characters' },
          })}
          error={errors.name?.message}
        />
        <Field
          label="Email"
          type="email"
          autoComplete="off"
          registration={register('email', {
            required: 'email is required',
            validate: (value) =>
              value.trim() === ''
                ? 'email is required'
                : EMAIL_SHAPE.test(value.trim()) || 'email must be a valid email address',
          })}
          error={errors.email?.message}
        />

        <Field
          label="Specialty"
          prompt="Please select a Specialty"
          options={specialties?.map((specialty) => ({ value: specialty.name, label: specialty.name })) ?? []}
          registration={register('specialty', { required: 'specialty is required' })}
          error={errors.specialty?.message}
        />
        {specialtiesError && (
          <p className="field__error" role="alert">
            The specialties could not be loaded: {errorText(specialtiesError)}
          </p>
        )}

        <div className="field">
          <label htmlFor={photoId}>Photo</label>
          <input
            id={photoId}
            type="file"
            accept="image/*"
            aria-invalid={errors.photo ? true : undefined}
            aria-describedby={`${photoId}-hint${errors.photo ? ` ${photoId}-error` : ''}`}
            {...photoField}
            onChange={async (event) => {
              await photoField.onChange(event);
              // Say at once when the chosen file cannot be used, rather than at Add.
              await trigger('photo');
            }}
          />
          <p id={`${photoId}-hint`} className="doctor-form__hint">
            JPEG, PNG, WebP, GIF or AVIF, at most 2 MB.
          </p>
          {errors.photo?.message && (
            <p id={`${photoId}-error`} className="field__error">
              {errors.photo.message}
            </p>
          )}
          {previewUrl && (
            <img
              className="doctor-form__preview"
              src={previewUrl}
              alt="Preview of the new doctor’s portrait"
              width={96}
              height={96}
            />
          )}
        </div>

        <WorkingHoursFields
          registrations={{
            workingDays: register('workingDays', workingHoursRules.workingDays),
            start: register('start'),
            end: register('end', workingHoursRules.end),
          }}
          errors={{ workingDays: errors.workingDays?.message, end: errors.end?.message }}
        />

        <button type="submit" className="button button--primary doctor-form__submit" disabled={isSubmitting}>
          {isSubmitting ? 'Adding…' : 'Add'}
        </button>
      </form>
    </section>
  );
}
