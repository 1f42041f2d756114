import type { Dependant } from './dependants.ts';

/** What a family visit's dialog needs: the people, the day's treatments, and whose desk books it (if any). */
export interface FamilyVisitProps {
  /** The account holder's name, and their family. */
  myName: string;
  family: readonly Pick<Dependant, '_id' | 'name'>[];
  /** The treatments offered that day (id, name and price). */
  treatments: readonly { _id: string; name: string; price: number }[];
  /** ISO date, and as the page shows it. */
  isoDate: string;
  displayDate: string;
  /**
   * The front desk books for an account by phone (its holder's id and the caller's phone), paid at
   * the clinic; without it the signed-in patient books for their own family.
   */
  desk?: { accountId: string; phone: string; onBooked(message: string): void };
  onClose(): void;
}
