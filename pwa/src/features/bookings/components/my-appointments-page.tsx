/** /dashboard (signed in). The bookings table comes with the booking issue. */
export function MyAppointmentsPage() {
  return (
    <section className="dashboard-page">
      <h1>My Appointments</h1>
      <p>Your booked appointments will be listed here.</p>
    </section>
  );
}
