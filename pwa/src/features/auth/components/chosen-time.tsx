import { startClockText } from '../../../../../contract/slot-label.ts';
import { choiceFrom } from '../../../lib/booking-choice.ts';
import { localDay } from '../../../lib/clinic-calendar.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { useHydrated } from '../../../lib/use-hydrated.ts';

/**
 * On Login and Sign Up opened from a chosen free time (`from` names it): that the time waits for the
 * visitor, so an account is a step of booking, not a wall before it. Nothing is held yet.
 */
export function ChosenTime({ from }: { from: string | null }) {
  const choice = choiceFrom(from);
  // The page's prerendered frame knows no address: the sentence comes once the app has taken the page over.
  const hydrated = useHydrated();
  const { t, format } = useLanguage();
  if (!hydrated || !choice) return null;
  const day = format.fullDay(localDay(choice.date));
  return (
    <p className="auth-card__reason" role="status">
      {t('chosen.oneStep', {
        day,
        hasTime: choice.start ? 'yes' : 'no',
        time: choice.start ? startClockText(choice.start) : '',
      })}
    </p>
  );
}
