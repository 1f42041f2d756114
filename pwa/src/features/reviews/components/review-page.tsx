import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useSWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { createReview, REVIEW_LIMITS, type NewReview } from '../api/create-review.ts';
import { REVIEWS_KEY } from '../api/get-reviews.ts';
import '../reviews.css';
import { initials } from '../initials.ts';

const { review: REVIEW, location: LOCATION } = REVIEW_LIMITS;

/** How the review will look among the testimonials: the text, the patient's photo (or initials), name and location. */
function ReviewPreview({ name, photoURL, review, location }: { name: string; photoURL: string | null; review: string; location: string }) {
  return (
    <figure className="review review-preview">
      <blockquote className="review__text">
        <p>{review.trim() || 'Your review will show here.'}</p>
      </blockquote>
      <figcaption className="review__author">
        {photoURL ? (
          <img className="review__avatar" src={photoURL} alt="" width="56" height="56" />
        ) : (
          <span className="review__avatar review__avatar--initials" aria-hidden="true">
            {initials(name)}
          </span>
        )}
        <span>
          <span className="review__name">{name}</span>
          <span className="review__location">{location.trim() || 'Your location'}</span>
        </span>
      </figcaption>
    </figure>
  );
}

/** /review (signed in): a patient writes a review for the home page testimonials. */
export function ReviewPage() {
  const { user } = useSession();
  const { mutate } = useSWRConfig();
  const [, navigate] = useLocation();
  const ids = useId();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<NewReview>({ defaultValues: { review: '', location: '' } });

  const name = user?.displayName || user?.email?.split('@')[0] || '';
  const review = watch('review');
  const location = watch('location');

  const onSubmit = handleSubmit(async (values) => {
    try {
      await createReview({ review: values.review.trim(), location: values.location.trim() });
      notify.success('Thank you for your review!');
      void mutate(REVIEWS_KEY);
      navigate('/');
    } catch (cause) {
      notify.error(errorText(cause));
    }
  });

  const reviewError = errors.review?.message;
  const locationError = errors.location?.message;

  return (
    <section className="review-page" aria-labelledby={`${ids}-title`}>
      <h1 id={`${ids}-title`}>Review</h1>
      <p className="section-lead">Tell other patients about your visit. Your name and photo show with it on the home page.</p>
      <div className="review-page__layout">
        <form className="review-page__form" onSubmit={onSubmit} aria-labelledby={`${ids}-form-title`} noValidate>
          <h2 id={`${ids}-form-title`} className="review-page__form-title">
            Write a review
          </h2>
          <div className="field">
            <label htmlFor={`${ids}-review`}>Your review</label>
            <textarea
              id={`${ids}-review`}
              rows={6}
              aria-invalid={reviewError ? true : undefined}
              aria-describedby={reviewError ? `${ids}-review-error` : `${ids}-review-hint`}
              {...register('review', {
                validate: (value) => {
                  const length = value.trim().length;
                  if (length < REVIEW.min) return `review must be at least ${REVIEW.min} characters`;
                  if (length > REVIEW.max) return `review must be at most ${REVIEW.max} characters`;
                  return true;
                },
              })}
            />
            {reviewError ? (
              <p id={`${ids}-review-error`} className="field__error">
                {reviewError}
              </p>
            ) : (
              <p id={`${ids}-review-hint`} className="review-page__hint">
                {review.trim().length} of {REVIEW.max} characters, at least {REVIEW.min}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${ids}-location`}>Location</label>
            <input
              id={`${ids}-location`}
              type="text"
              autoComplete="address-level2"
              aria-invalid={locationError ? true : undefined}
              aria-describedby={locationError ? `${ids}-location-error` : undefined}
              {...register('location', {
                validate: (value) => {
                  const length = value.trim().length;
                  if (length < LOCATION.min) return 'location is required';
                  if (length > LOCATION.max) return `location must be at most ${LOCATION.max} characters`;
                  return true;
                },
              })}
            />
            {locationError && (
              <p id={`${ids}-location-error`} className="field__error">
                {locationError}
              </p>
            )}
          </div>
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            Post review
          </button>
        </form>
        <div className="review-page__preview">
          <h2 className="review-page__preview-title">Preview</h2>
          <ReviewPreview name={name} photoURL={user?.photoURL ?? null} review={review} location={location} />
        </div>
      </div>
    </section>
  );
}
