import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/spinner.tsx';
import {
  MyAppointmentsPage as Appointments,
  type BelowTheList,
} from '../../features/bookings/components/my-appointments-page.tsx';
import {
  MyWaitlist,
  ReminderToggle,
  SmsSettingForm,
} from '../../features/bookings/components/waitlist-and-reminders.tsx';
import { MyFamily } from '../../features/family/components/my-family.tsx';
import { CalendarFeed } from '../../features/feeds/calendar-feed.tsx';
import { YourData } from '../../features/privacy/your-data.tsx';
import { useT } from '../../lib/i18n.tsx';

// Below the list, and not needed for its first paint: loaded after it (docs/product-payments.md#statement).
const PaymentsAndCards = lazy(() =>
  import('../../features/payments/components/statement.tsx').then((m) => ({ default: m.PaymentsAndCards })),
);

/** The patient's account below their appointments: each part is another feature's, composed here. */
function Account({ email, name, online, notRefunded }: Parameters<BelowTheList>[0]) {
  const t = useT();
  return (
    <>
      <ReminderToggle email={email} />
      <SmsSettingForm email={email} />
      <Suspense fallback={<Spinner label={t('statement.loadingAll')} />}>
        <PaymentsAndCards email={email} name={name} online={online} />
      </Suspense>
      <section className="bookings__feed" aria-labelledby="calendar-feed-title">
        <h2 id="calendar-feed-title">{t('feed.title')}</h2>
        <CalendarFeed who={t('feed.whoPatient')} />
      </section>
      <MyFamily email={email} />
      <MyWaitlist email={email} />
      <YourData notRefunded={notRefunded} />
    </>
  );
}

const below: BelowTheList = (patient) => <Account {...patient} />;

/** docs/product-booking.md#my-appointments (/dashboard): the bookings feature's page, with the account's parts below. */
export function MyAppointmentsPage() {
  return <Appointments below={below} />;
}
