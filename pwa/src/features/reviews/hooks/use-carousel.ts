import { useCallback, useEffect, useState } from 'react';

/** Clones kept on each side of the track so the loop can slide past either end (enough for 3 per view). */
export const CLONES = 3;

type Options = {
  count: number;
  perView: number;
  intervalMs: number;
  transitionMs: number;
  autoplay: boolean;
  animate: boolean;
};

/**
 * An infinite carousel over `count` slides rendered on a track of CLONES + count + CLONES items.
 * Moving past either end slides onto the clones, then silently jumps back to the matching real slide.
 */
export function useCarousel({ count, perView, intervalMs, transitionMs, autoplay, animate }: Options) {
  const [position, setPosition] = useState(CLONES);
  const [transition, setTransition] = useState(false);
  const enabled = count > perView;

  const move = useCallback(
    (step: number) => {
      if (!enabled) return;
      setTransition(animate);
      setPosition((current) => current + step);
    },
    [animate, enabled],
  );

  // Back from the clones to the real slide they copy, without animation.
  useEffect(() => {
    if (position >= CLONES && position < CLONES + count) return;
    const wrapped = (current: number) => (current < CLONES ? current + count : current - count);
    if (!transition) {
      setPosition(wrapped);
      return;
    }
    const timer = setTimeout(() => {
      setTransition(false);
      setPosition(wrapped);
    }, transitionMs);
    return () => clearTimeout(timer);
  }, [position, count, transition, transitionMs]);

  useEffect(() => {
    if (!autoplay || !enabled) return;
    const timer = setInterval(() => move(1), intervalMs);
    return () => clearInterval(timer);
  }, [autoplay, enabled, intervalMs, move]);

  return {
    enabled,
    /** Index of the leftmost visible item on the track (with clones when enabled, without otherwise). */
    offset: enabled ? position : 0,
    transition,
    next: () => move(1),
    previous: () => move(-1),
  };
}
