/** /dashboard/manage-doctors (admin). The doctors table comes with the doctors issue. */
export function ManageDoctorsPage() {
  return (
    <section className="dashboard-page">
      <h1>Manage Doctors</h1>
      <p>The clinic's doctors will be listed here.</p>
    </section>
  );
}
