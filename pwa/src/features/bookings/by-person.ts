import type { Booking } from '../../../../contract/bookings.ts';

/**
 * docs/product-booking.md#family: bookings by person, the account holder's first; a booking is
 * a dependant's when it carries their name. Without dependants: one group.
 */
export function byPerson<B extends Booking>(bookings: readonly B[], family: readonly { name: string }[]) {
  const names = new Set(family.map((person) => person.name));
  const groups = new Map<string | null, B[]>([[null, []]]);
  for (const booking of bookings) {
    const key = names.has(booking.patientName) ? booking.patientName : null;
    groups.set(key, [...(groups.get(key) ?? []), booking]);
  }
  return [...groups].filter(([, list]) => list.length > 0).map(([name, list]) => ({ name, bookings: list }));
}
