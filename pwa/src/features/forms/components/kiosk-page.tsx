import { useEffect, useRef, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { storedAccessClaims } from '../../../lib/stored-access-token.ts';
import { saveFormAnswers } from '../api/booking-forms.ts';
import { endKiosk, type KioskState, lockKiosk } from '../api/kiosk.ts';
import { useLinkForms } from '../api/link-forms.ts';
import { FormsList } from './forms-list.tsx';
import '../forms.css';

/**
 * Kiosk mode (docs/product-booking.md#forms): on every route of the tablet, one visit's missing forms, read
 * and saved with the kiosk's token alone (no account is signed in), then the lock. Whoever signs in
 * here: staff end kiosk mode; anyone else is signed out again and the kiosk stays.
 */
export function KioskPage({ kiosk }: { kiosk: Exclude<KioskState, null> }) {
  const { user, signOut } = useSession();
  useEffect(() => {
    if (!user) return;
    if (storedAccessClaims()?.role === 'admin') {
      endKiosk();
      return;
    }
    void signOut({ everywhere: false });
    notify.error('Only the clinic’s staff can unlock this tablet');
  }, [user, signOut]);
  if (kiosk === 'locked') return <KioskLock />;
  return (
    <main id="main" className="kiosk">
      <KioskForms token={kiosk.token} />
    </main>
  );
}

function KioskForms({ token }: { token: string }) {
  const { data, error } = useLinkForms(token);
  // The forms to fill, as they were when the tablet was handed over: each stays on screen once saved.
  const [shown, setShown] = useState<string[] | null>(null);
  useEffect(() => {
    if (data && shown === null) setShown(data.forms.filter((f) => f.status !== 'filled').map((f) => f._id));
  }, [data, shown]);
  const forms = data?.forms.filter((f) => shown?.includes(f._id)) ?? [];
  const remaining = forms.filter((f) => f.status !== 'filled').length;
  return (
    <section aria-labelledby="kiosk-title">
      <h1 id="kiosk-title">{data ? `Forms for ${data.patientName}` : 'Forms for the visit'}</h1>
      {data && (
        <p className="section-lead">
          {data.treatment} on {data.appointmentDate} at {data.slot}
        </p>
      )}
      {error && !data ? (
        <p role="alert" className="form-error">
          The forms could not be loaded: {errorText(error)}
        </p>
      ) : !data || shown === null ? (
        <Spinner label="Loading the forms" />
      ) : (
        <FormsList forms={forms} onSave={(form, answers) => saveFormAnswers({ token }, form, answers)} />
      )}
      <p className="kiosk__done">
        {remaining > 0 && shown !== null && (
          <span className="muted">{remaining === 1 ? '1 form' : `${remaining} forms`} still to fill. </span>
        )}
        <button type="button" className="button button--primary" onClick={lockKiosk}>
          I’m done: lock the tablet
        </button>
      </p>
    </section>
  );
}

/** The locked tablet: nothing of any patient, only the way back for staff, through the sign-in page. */
function KioskLock() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main id="main" className="kiosk kiosk__lock">
      <h1 ref={heading} tabIndex={-1}>
        Thank you
      </h1>
      <p>Please hand the tablet back to the front desk.</p>
      <button type="button" className="button" onClick={() => navigate('/login')}>
        Staff sign-in
      </button>
    </main>
  );
}
