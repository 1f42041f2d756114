/** An indeterminate progress bar (no value: how long it takes is unknown). */
export function ProgressBar({ label }: { label: string }) {
  return (
    <div className="progress" role="progressbar" aria-label={label}>
      <span className="progress__bar" aria-hidden="true" />
    </div>
  );
}
