import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { useBooking } from '../../payments/api/get-booking.ts';
import { useBookingForms, useSaveFormAnswers } from '../api/booking-forms.ts';
import { endKiosk } from '../kiosk.ts';
import { FormsList } from './forms-list.tsx';
import '../forms.css';

/**
 * Kiosk mode (docs/product.md#forms): the tablet shows one patient's missing forms and nothing
 * else (no menu, every route leads here). "I'm done" signs this tablet out (this device only) and
 * locks it on a screen that shows no patient's data until staff sign in again.
 */
export function KioskPage({ bookingId }: { bookingId: string }) {
  const { user } = useSession();
  // Handed over from the schedule, staff are signed in; a tablet signed out meanwhile shows the lock.
  const [locked, setLocked] = useState(() => !user);
  if (locked || !user) return <KioskLock />;
  return (
    <main id="main" className="kiosk">
      <KioskForms bookingId={bookingId} onDone={() => setLocked(true)} />
    </main>
  );
}

function KioskForms({ bookingId, onDone }: { bookingId: string; onDone(): void }) {
  const { data: booking } = useBooking(bookingId);
  const { data, error } = useBookingForms(bookingId, null);
  const save = useSaveFormAnswers(bookingId);
  // The forms to fill, as they were when the tablet was handed over: each stays on screen once saved.
  const [shown, setShown] = useState<string[] | null>(null);
  useEffect(() => {
    if (data && shown === null) setShown(data.forms.filter((f) => f.status !== 'filled').map((f) => f._id));
  }, [data, shown]);
  const forms = data?.forms.filter((f) => shown?.includes(f._id)) ?? [];
  const remaining = forms.filter((f) => f.status !== 'filled').length;
  return (
    <section aria-labelledby="kiosk-title">
      <h1 id="kiosk-title">{booking ? `Forms for ${booking.patientName}` : 'Forms for your visit'}</h1>
      {booking && (
        <p className="section-lead">
          {booking.treatment} on {booking.appointmentDate} at {booking.slot}
        </p>
      )}
      {error && !data ? (
        <p role="alert" className="form-error">
          The forms could not be loaded: {errorText(error)}
        </p>
      ) : !data || shown === null ? (
        <Spinner label="Loading the forms" />
      ) : (
        <FormsList forms={forms} onSave={save} />
      )}
      <p className="kiosk__done">
        {remaining > 0 && shown !== null && (
          <span className="muted">{remaining === 1 ? '1 form' : `${remaining} forms`} still to fill. </span>
        )}
        <button type="button" className="button button--primary" onClick={onDone}>
          I’m done: lock the tablet
        </button>
      </p>
    </section>
  );
}

/**
 * The locked tablet: this device is signed out (and every cached answer dropped) as it shows, so
 * nothing of any patient is left; only the way back for staff, through the sign-in page.
 */
function KioskLock() {
  const { signOut } = useSession();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    void signOut({ everywhere: false });
  }, [signOut]);
  return (
    <main id="main" className="kiosk kiosk__lock">
      <h1 ref={heading} tabIndex={-1}>
        Thank you
      </h1>
      <p>Please hand the tablet back to the front desk.</p>
      <button type="button" className="button" onClick={endKiosk}>
        Staff sign-in
      </button>
    </main>
  );
}
