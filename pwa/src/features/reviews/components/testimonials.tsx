import { type FocusEvent, type ReactNode, useRef, useState } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import { useMediaQuery } from '../../../lib/use-media-query.ts';
import { type Review, useReviews } from '../api/get-reviews.ts';
import { CLONES, useCarousel } from '../hooks/use-carousel.ts';
import { initials } from '../initials.ts';
import '../testimonials.css';

// docs/product-visitors.md#testimonials: 3 slides in view, scroll 1, 500 ms transition, autoplay every 2000 ms, infinite loop.
export const AUTOPLAY_MS = 2000;
export const TRANSITION_MS = 500;

function ReviewCard({ review }: { review: Review }) {
  return (
    <figure className="review">
      <blockquote className="review__text">
        <p>{review.review}</p>
      </blockquote>
      <figcaption className="review__author">
        {review.img ? (
          <img className="review__avatar" src={review.img} alt="" width="56" height="56" loading="lazy" />
        ) : (
          <span className="review__avatar review__avatar--initials" aria-hidden="true">
            {initials(review.name)}
          </span>
        )}
        <span>
          <span className="review__name">{review.name}</span>
          <span className="review__location">{review.location}</span>
        </span>
      </figcaption>
    </figure>
  );
}

function Carousel({ reviews }: { reviews: Review[] }) {
  const wide = useMediaQuery('(min-width: 1024px)', true);
  const medium = useMediaQuery('(min-width: 640px)', true);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)', false);
  const perView = wide ? 3 : medium ? 2 : 1;
  const t = useT();

  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const rotationButton = useRef<HTMLButtonElement>(null);

  const count = reviews.length;
  const autoplay = playing && !reducedMotion && !hovered && !focused;
  const carousel = useCarousel({
    count,
    perView,
    intervalMs: AUTOPLAY_MS,
    transitionMs: TRANSITION_MS,
    autoplay,
    animate: !reducedMotion,
  });

  // Focus on the play/stop button itself must not pause, or "Start" could never take effect.
  const pausesOnFocus = (element: EventTarget | null) => element !== rotationButton.current;
  function handleFocus(event: FocusEvent<HTMLElement>) {
    setFocused(pausesOnFocus(event.target));
  }
  function handleBlur(event: FocusEvent<HTMLElement>) {
    const next = event.relatedTarget;
    setFocused(next instanceof Node && event.currentTarget.contains(next) && pausesOnFocus(next));
  }

  const track = carousel.enabled
    ? [
        ...Array.from({ length: CLONES }, (_, i) => ({ index: (((i - CLONES) % count) + count) % count, clone: true })),
        ...reviews.map((_, index) => ({ index, clone: false })),
        ...Array.from({ length: CLONES }, (_, i) => ({ index: i % count, clone: true })),
      ]
    : reviews.map((_, index) => ({ index, clone: false }));

  const showsAll = !carousel.enabled;
  const rotating = playing && !reducedMotion;

  return (
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: the WAI-ARIA carousel pattern pauses rotation while the pointer or the focus is inside it.
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={t('testimonials.label')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={handleFocus}
      onBlur={handleBlur}
    >
      {!showsAll && (
        <div className="carousel__controls">
          {!reducedMotion && (
            <button
              ref={rotationButton}
              type="button"
              className="carousel__button"
              onClick={() => setPlaying((value) => !value)}
            >
              {rotating ? t('testimonials.stop') : t('testimonials.start')}
            </button>
          )}
          <button
            type="button"
            className="carousel__button carousel__arrow"
            aria-label={t('testimonials.previous')}
            onClick={carousel.previous}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path fill="currentColor" d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z" />
            </svg>
          </button>
          <button
            type="button"
            className="carousel__button carousel__arrow"
            aria-label={t('testimonials.next')}
            onClick={carousel.next}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path fill="currentColor" d="M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z" />
            </svg>
          </button>
        </div>
      )}
      <div className="carousel__viewport" aria-live={autoplay ? 'off' : 'polite'}>
        <div
          className="carousel__track"
          style={{
            ['--per-view' as string]: String(perView),
            transform: `translateX(${(-carousel.offset * 100) / perView}%)`,
            transition: carousel.transition ? `transform ${TRANSITION_MS}ms ease` : 'none',
          }}
        >
          {track.map(({ index, clone }, slot) => {
            const review = reviews[index];
            if (!review) return null;
            // Only the slides in view are exposed; near the ends of the loop those may be clones.
            const inView = slot >= carousel.offset && slot < carousel.offset + perView;
            return (
              // biome-ignore lint/a11y/useSemanticElements: a slide is a role="group" with aria-roledescription, as the WAI-ARIA carousel pattern has it; a fieldset is for form controls.
              <div
                key={clone ? `clone-${slot}` : review._id}
                className="carousel__slide"
                role="group"
                aria-roledescription="slide"
                aria-label={t('testimonials.slide', { index: index + 1, count })}
                aria-hidden={!inView || undefined}
              >
                <ReviewCard review={review} />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

export function Testimonials() {
  const { data, error } = useReviews();
  const t = useT();

  let content: ReactNode;
  if (error) content = <p className="testimonials__status">{t('testimonials.error')}</p>;
  else if (!data)
    content = (
      <p className="testimonials__status" role="status">
        {t('testimonials.loading')}
      </p>
    );
  else if (data.length === 0) content = <p className="testimonials__status">{t('testimonials.empty')}</p>;
  else content = <Carousel reviews={data} />;

  return (
    <section className="testimonials" aria-labelledby="testimonials-title">
      <div className="testimonials__header">
        <div>
          <p className="eyebrow">{t('testimonials.eyebrow')}</p>
          <h2 id="testimonials-title">{t('testimonials.title')}</h2>
        </div>
        <svg className="testimonials__quote" viewBox="0 0 64 48" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M0 48V28C0 12 8 2 24 0l2 6C16 9 12 15 12 24h12v24zm36 0V28c0-16 8-26 24-28l2 6c-10 3-14 9-14 18h12v24z"
          />
        </svg>
      </div>
      {content}
    </section>
  );
}
