import type { ReactNode } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import { type TeamMember, useTeam } from '../../../lib/team.ts';
import '../landing.css';

/** As many placeholders as one row shows on a wide screen, while the team loads. */
const PLACEHOLDERS = 4;

function DoctorCard({ doctor }: { doctor: TeamMember }) {
  return (
    <li className="team-card">
      <img className="team-card__photo" src={doctor.image} alt="" width={96} height={96} loading="lazy" />
      <h3 className="team-card__name">{doctor.name}</h3>
      <p className="team-card__specialty">{doctor.specialty}</p>
    </li>
  );
}

/**
 * docs/product-visitors.md#our-doctors (#doctors, the navigation bar's Doctors link): the clinic's doctors from GET /api/team, in one row of fixed height
 * (it scrolls sideways when they do not fit), so nothing below moves when they arrive.
 */
export function OurDoctors() {
  const { data: team, error } = useTeam();
  const t = useT();

  let content: ReactNode;
  if (error) content = <p className="team__status">{t('team.error')}</p>;
  else if (!team) {
    content = (
      <>
        <p className="visually-hidden" role="status">
          {t('team.loading')}
        </p>
        <ul className="team__list" aria-hidden="true">
          {Array.from({ length: PLACEHOLDERS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing but their position.
            <li key={i} className="team-card team-card--placeholder" />
          ))}
        </ul>
      </>
    );
  } else if (team.length === 0) content = <p className="team__status">{t('team.empty')}</p>;
  else {
    content = (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a row that scrolls sideways must be reachable by keyboard to scroll it (WCAG 2.1.1).
      <ul className="team__list" tabIndex={0} aria-label={t('team.title')}>
        {team.map((doctor) => (
          <DoctorCard key={doctor._id} doctor={doctor} />
        ))}
      </ul>
    );
  }

  return (
    <section id="doctors" className="team" aria-labelledby="team-title">
      <p className="eyebrow">{t('team.eyebrow')}</p>
      <h2 id="team-title">{t('team.title')}</h2>
      <p className="section-lead">{t('team.lead')}</p>
      <div className="team__row">{content}</div>
    </section>
  );
}
