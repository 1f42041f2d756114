/** /appointment (signed in). The booking screen comes with the booking issue. */
export function AppointmentPage() {
  return (
    <section className="placeholder-page">
      <h1>Appointment</h1>
      <p>Pick a date and a treatment to book here; booking opens soon.</p>
    </section>
  );
}
