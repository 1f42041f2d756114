import { format } from 'date-fns/format';
import { startClockText } from '../../../../../contract/slot-label.ts';
import { choiceFrom } from '../../../lib/booking-choice.ts';
import { localDay } from '../../../lib/clinic-calendar.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';

/**
 * On Login and Sign Up opened from a chosen free time (`from` names it): that the time waits for the
 * visitor, so an account is a step of booking, not a wall before it. Nothing is held yet.
 */
export function ChosenTime({ from }: { from: string | null }) {
  const choice = choiceFrom(from);
  // The page's prerendered frame knows no address: the sentence comes once the app has taken the page over.
  const hydrated = useHydrated();
  if (!hydrated || !choice) return null;
  const when = `${format(localDay(choice.date), 'EEEE, PP')}${choice.start ? ` at ${startClockText(choice.start)}` : ''}`;
  return (
    <p className="auth-card__reason" role="status">
      One step to book {when}: sign in or create your account, and the booking opens with this time chosen.
    </p>
  );
}
