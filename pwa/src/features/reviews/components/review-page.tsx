import { type ReactNode, useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { type ModeratedReview, type ReviewStatus, useOwnReview } from '../api/get-own-review.ts';
import { type NewReview, REVIEW_LIMITS, saveReview } from '../api/save-review.ts';
import '../testimonials.css';
import '../reviews.css';
import { initials } from '../initials.ts';

const { review: REVIEW, location: LOCATION } = REVIEW_LIMITS;

/** How the review will look among the testimonials: the text, the patient's photo (or initials), name and location. */
function ReviewPreview({
  name,
  photoURL,
  review,
  location,
}: {
  name: string;
  photoURL: string | null;
  review: string;
  location: string;
}) {
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

export const NOT_YET_TEXT = 'You can write a review after your first appointment at the clinic.';

/** What the patient's review is waiting for, or where it is. */
export const STATUS_TEXT: Record<ReviewStatus, string> = {
  pending: 'Your review is waiting for the clinic’s approval. You can still edit it.',
  approved: 'Your review is on the home page. If you edit it, it waits for the clinic’s approval again.',
  hidden: 'The clinic has hidden your review from the home page. You can edit it and send it for approval again.',
};

/** /review (signed in): a patient who has had an appointment writes their one review, or edits it. */
export function ReviewPage() {
  const { user } = useSession();
  const { data, error } = useOwnReview(user?.email);
  const ids = useId();
  if (error) throw error; // the layout's error screen

  let content: ReactNode;
  if (!data) {
    content = <Spinner label="Loading your review" />;
  } else if (!data.canReview) {
    content = (
      <div className="review-page__not-yet">
        <p>{NOT_YET_TEXT}</p>
        <Link href="/appointment" className="button button--primary">
          Book an appointment
        </Link>
      </div>
    );
  } else {
    content = <ReviewForm existing={data.review} />;
  }

  return (
    <section className="review-page" aria-labelledby={`${ids}-title`}>
      <h1 id={`${ids}-title`}>Review</h1>
      <p className="section-lead">
        Tell other patients about your visit. Once the clinic approves it, it shows on the home page with your name and
        photo.
      </p>
      {content}
    </section>
  );
}

function ReviewForm({ existing }: { existing: ModeratedReview | null }) {
  const { user } = useSession();
  const ids = useId();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<NewReview>({ defaultValues: { review: existing?.review ?? '', location: existing?.location ?? '' } });

  const name = existing?.name || user?.displayName || user?.email?.split('@')[0] || '';
  const review = watch('review');
  const location = watch('location');

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await saveReview({ review: values.review.trim(), location: values.location.trim() });
      notify.success(saved.message);
    } catch (cause) {
      notify.error(errorText(cause));
    }
  });

  const reviewError = errors.review?.message;
  const locationError = errors.location?.message;
  const title = existing ? 'Edit your review' : 'Write a review';

  return (
    <div className="review-page__layout">
      <form className="review-page__form" onSubmit={onSubmit} aria-labelledby={`${ids}-form-title`} noValidate>
        <h2 id={`${ids}-form-title`} className="review-page__form-title">
          {title}
        </h2>
        {existing && (
          <p className="review-page__status" data-status={existing.status}>
            {STATUS_TEXT[existing.status]}
          </p>
        )}
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
          {existing ? 'Update review' : 'Post review'}
        </button>
      </form>
      <div className="review-page__preview">
        <h2 className="review-page__preview-title">Preview</h2>
        <ReviewPreview
          name={name}
          photoURL={existing?.img || user?.photoURL || null}
          review={review}
          location={location}
        />
      </div>
    </div>
  );
}
