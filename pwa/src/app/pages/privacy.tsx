import { Link } from 'wouter';
import { useClinicInfo } from '../../lib/clinic-info.ts';

/**
 * docs/product-visitors.md#privacy-and-your-data (/privacy, anyone): what the clinic stores about a patient, for how long, how to
 * take it away or erase it, and whom to ask. Plain words; the same rules the Worker keeps
 * (worker/src/records/privacy.ts).
 */
export function PrivacyPage() {
  const clinic = useClinicInfo();
  return (
    <article className="prose-page" aria-labelledby="privacy-title">
      <h1 id="privacy-title">Privacy and your data</h1>
      <p>
        {clinic.name} keeps only what it needs to see you, remind you and be paid. This page says what that is, how long
        it stays and what you can do about it.
      </p>
      <h2>What we store</h2>
      <ul>
        <li>Your name, email address and, if you give them, your phone and mobile number.</li>
        <li>
          Your visits: the treatment, the time, the doctor, whether it was kept, and what you paid or were refunded.
        </li>
        <li>The people in your family you book for, and the forms you fill in before a visit.</li>
        <li>Your reviews, your places on the waitlist and your recall reminders.</li>
        <li>Cards are kept by our payment provider, not by us: we see only the brand and the last four digits.</li>
      </ul>
      <h2>How long</h2>
      <p>
        As long as you have an account. When you delete it, your name, contact details, family, form answers, reviews
        and settings are erased at once, and your upcoming visits are cancelled. The law makes us keep payment records
        and the record of who changed what; they stay, without your name.
      </p>
      <h2>Take it with you, or erase it</h2>
      <p>
        Signed in, <Link href="/dashboard">My Appointments</Link> has <strong>Download my data</strong> (one file with
        everything we hold about you and your family) and <strong>Delete my account</strong>.
      </p>
      <h2>Ask us</h2>
      <p>
        Write to us at {clinic.address}, or call{' '}
        <a href={`tel:${clinic.phone.replace(/[^+\d]/g, '')}`}>{clinic.phone}</a>. We answer within 30 days.
      </p>
    </article>
  );
}
