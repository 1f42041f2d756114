/**
 * Where a family visit fits on a day, and, when it fits nowhere, why in plain words and what would
 * work instead (docs/product-booking.md#family): the clinic closed, one dentist for two treatments at once,
 * too few chairs, longer than the day, or every time taken.
 */
import type { FamilyOptions } from '../../../contract/family.ts';
import { slotLabel, startText } from '../../../contract/slot-label.ts';
import type { TreatmentRow } from '../clinic/data/treatments.ts';
import { bookingWindowProblem, firstBookableMinute } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { familyPlan } from './engine/family.ts';
import { closedFor, type Day, gridStarts, readDay, treatmentOn } from './schedule.ts';

type Arrangement = 'together' | 'back-to-back';
type Member = { patientId: string; treatment: TreatmentRow };

/** The starts where the family fits `arrangement`, each with the family's span. */
function fitting(day: Day, members: Member[], arrangement: Arrangement, from: number) {
  const first = members[0];
  if (!first) return [];
  return gridStarts(day, first.treatment.duration_minutes).flatMap((start) => {
    if (start < from) return [];
    const plan = familyPlan(day, members, start, arrangement);
    if ('misfit' in plan) return [];
    const end = Math.max(...plan.places.map((p, i) => p.start + (members[i]?.treatment.duration_minutes ?? 0)));
    return [
      {
        slot: slotLabel(start, first.treatment.duration_minutes),
        start: startText(start),
        span: slotLabel(start, end - start),
      },
    ];
  });
}

/** Why no start fits `arrangement`, checking the likely causes first. */
function whyNothingFits(day: Day, members: Member[], arrangement: Arrangement): string {
  const closed = members.map((m) => closedFor(day, m.treatment)).find(Boolean);
  if (closed) return `Closed: ${closed}`;
  if (arrangement === 'together') {
    const bySpecialty = new Map<string, Member[]>();
    for (const m of members)
      bySpecialty.set(m.treatment.specialty_id, [...(bySpecialty.get(m.treatment.specialty_id) ?? []), m]);
    for (const [specialty, needing] of bySpecialty) {
      const dentists = day.doctors.filter((d) => d.specialty_id === specialty).length;
      if (needing.length > dentists) {
        const names = needing.map((m) => m.treatment.name).join(' and ');
        return dentists === 1
          ? `${names} need the same dentist, and only one who does them works that day: they cannot be at the same time`
          : `${names} need ${needing.length} dentists of the same kind, and ${dentists} work that day`;
      }
    }
    if (members.length > day.chairs.length) {
      return `The clinic has ${day.chairs.length} chairs: at most ${day.chairs.length} people at the same time`;
    }
  }
  const open = day.hours ? day.hours.close - day.hours.open : 0;
  const minutes = members.reduce((sum, m) => sum + m.treatment.duration_minutes, 0);
  if (arrangement === 'back-to-back' && minutes > open) {
    return `One after another the visits take ${minutes} minutes, longer than the clinic is open that day`;
  }
  return 'Every time that day is taken for at least one of you';
}

/**
 * GET /api/appointmentOptions/family's answer: the first member's starts on `isoDate` at which the
 * whole family fits `arrangement`, with the family's spans; none: why, and the other arrangement's
 * first start when it fits.
 */
export async function familyFit(
  env: Env,
  wanted: { patientId: string; treatment: string }[],
  isoDate: string,
  arrangement: Arrangement,
): Promise<FamilyOptions> {
  const now = clock();
  const outside = bookingWindowProblem(env, isoDate, now);
  if (outside) return { slots: [], starts: [], spans: [], reason: outside, suggestion: null };
  const day = await readDay(env, isoDate, now);
  const members = wanted.map((m) => ({ patientId: m.patientId, treatment: treatmentOn(day, m.treatment) }));
  const from = firstBookableMinute(env, isoDate, now);
  const fits = fitting(day, members, arrangement, from);
  if (fits.length > 0) {
    return {
      slots: fits.map((f) => f.slot),
      starts: fits.map((f) => f.start),
      spans: fits.map((f) => f.span),
      reason: null,
      suggestion: null,
    };
  }
  const other: Arrangement = arrangement === 'together' ? 'back-to-back' : 'together';
  const [instead] = fitting(day, members, other, from);
  return {
    slots: [],
    starts: [],
    spans: [],
    reason: whyNothingFits(day, members, arrangement),
    suggestion: instead ? { arrangement: other, slot: instead.slot } : null,
  };
}
