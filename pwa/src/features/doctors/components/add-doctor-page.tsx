/** /dashboard/add-doctors (admin). The form comes with the doctors issue. */
export function AddDoctorPage() {
  return (
    <section className="dashboard-page">
      <h1>Add A Doctor</h1>
      <p>The form to add a doctor will be here.</p>
    </section>
  );
}
