/** /review (signed in). The review form comes with the reviews issue. */
export function ReviewPage() {
  return (
    <section className="placeholder-page">
      <h1>Review</h1>
      <p>Tell us about your visit here; reviews open soon.</p>
    </section>
  );
}
