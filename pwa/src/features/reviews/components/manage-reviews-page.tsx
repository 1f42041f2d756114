import { useEffect, useId, useRef, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import type { ReviewStatus } from '../api/get-own-review.ts';
import { type QueuedReview, useReviewQueue } from '../api/get-review-queue.ts';
import { moderateReview } from '../api/moderate-review.ts';
import '../reviews.css';

const SECTIONS: { status: ReviewStatus; title: string; empty: string }[] = [
  { status: 'pending', title: 'Waiting for approval', empty: 'No review is waiting for approval.' },
  { status: 'approved', title: 'On the home page', empty: 'No review is on the home page.' },
  { status: 'hidden', title: 'Hidden', empty: 'No review is hidden.' },
];

const DECISIONS = [
  { status: 'approved', label: 'Approve', className: 'button--primary' },
  { status: 'hidden', label: 'Hide', className: 'manage-reviews__hide' },
] as const;

/** e.g. "Nov 21, 2026". */
const dayText = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(iso));

/**
 * /dashboard/reviews (admin): every review, those waiting for approval first, each with Approve
 * and Hide. After a decision, focus moves to the next review waiting in the same list.
 */
export function ManageReviewsPage() {
  const { data: reviews, error } = useReviewQueue();
  const [busy, setBusy] = useState<string | null>(null);
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = useId();

  // Once the list has been refetched, the decided review has moved: focus what took its place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reviews is the trigger: the refetched list is rendered, so the next review can take the focus.
  useEffect(() => {
    if (focusAfter === null || busy) return;
    const next = focusAfter ? document.getElementById(`${ids}-${focusAfter}`) : null;
    (next ?? headingRef.current)?.focus();
    setFocusAfter(null);
  }, [focusAfter, busy, reviews, ids]);

  if (error) throw error; // the layout's error screen

  async function decide(review: QueuedReview, status: 'approved' | 'hidden', next: QueuedReview | undefined) {
    setBusy(review._id);
    try {
      const result = await moderateReview(review._id, { status, version: review.version });
      notify.success(result.message);
      setFocusAfter(next?._id ?? '');
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="dashboard-page manage-reviews" aria-labelledby={`${ids}-title`}>
      <h1 id={`${ids}-title`} ref={headingRef} tabIndex={-1}>
        Reviews
      </h1>
      {!reviews ? (
        <Spinner label="Loading reviews" />
      ) : (
        SECTIONS.map(({ status, title, empty }) => {
          const list = reviews.filter((review) => review.status === status);
          return (
            <section key={status} className="manage-reviews__section" aria-labelledby={`${ids}-${status}`}>
              <h2 id={`${ids}-${status}`}>
                {title} <span className="muted">({list.length})</span>
              </h2>
              {list.length === 0 ? (
                <p className="muted">{empty}</p>
              ) : (
                <ul className="manage-reviews__list">
                  {list.map((review, index) => (
                    <li key={review._id}>
                      <article
                        id={`${ids}-${review._id}`}
                        className="manage-reviews__card"
                        tabIndex={-1}
                        aria-labelledby={`${ids}-${review._id}-name`}
                      >
                        <header className="manage-reviews__who">
                          <h3 id={`${ids}-${review._id}-name`}>{review.name}</h3>
                          <p className="muted">
                            {[
                              review.email,
                              review.location,
                              `written ${dayText(review.createdAt)}`,
                              review.updatedAt !== review.createdAt ? `edited ${dayText(review.updatedAt)}` : null,
                            ]
                              .filter(Boolean)
                              .join(' · ')}
                          </p>
                        </header>
                        <blockquote className="manage-reviews__text">
                          <p>{review.review}</p>
                        </blockquote>
                        <div className="manage-reviews__actions">
                          {DECISIONS.filter((d) => d.status !== review.status).map(({ status, label, className }) => (
                            <button
                              key={status}
                              type="button"
                              className={`button button--small ${className}`}
                              disabled={busy === review._id}
                              onClick={() => decide(review, status, list[index + 1])}
                              aria-describedby={`${ids}-${review._id}-name`}
                            >
                              {label}
                            </button>
                          ))}
                        </div>
                      </article>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })
      )}
    </section>
  );
}
