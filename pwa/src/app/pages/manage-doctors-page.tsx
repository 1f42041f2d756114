import { ManageDoctorsPage as Doctors } from '../../features/doctors/components/manage-doctors-page.tsx';
import { CalendarFeed } from '../../features/feeds/calendar-feed.tsx';

/** docs/product-admin.md#manage-doctors (/dashboard/manage-doctors): the doctors, each with the feeds feature's calendar feed. */
export function ManageDoctorsPage() {
  return (
    <Doctors calendarFeed={(doctor) => <CalendarFeed doctorId={doctor._id} who={`${doctor.name}’s appointments`} />} />
  );
}
