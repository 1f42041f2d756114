/**
 * A unique rule of the schema (a UNIQUE column, a primary key or a unique index, partial ones
 * included), named as SQLite names it when it refuses a write: the table and its columns.
 */
export interface UniqueConstraint {
  table: string;
  columns: readonly string[];
}

/** D1 says "UNIQUE constraint failed: bookings.user_id, bookings.treatment_id: SQLITE_CONSTRAINT …". */
const UNIQUE_FAILED = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/;

/**
 * Whether `error` is D1 refusing a write (or a batch) because it would break `constraint`, and not
 * another rule: the database decides who wins a race, and this tells which rule it applied.
 */
export function violates(error: unknown, constraint: UniqueConstraint): boolean {
  const failed = UNIQUE_FAILED.exec(error instanceof Error ? error.message : String(error))?.[1]?.split(', ');
  if (!failed || failed.length !== constraint.columns.length) return false;
  return constraint.columns.every((column) => failed.includes(`${constraint.table}.${column}`));
}

/** Whether `error` is D1 refusing a write on any rule of the schema (unique, foreign key, check, a trigger's abort). */
export function isConstraintFailure(error: unknown): boolean {
  return /SQLITE_CONSTRAINT|constraint failed/.test(error instanceof Error ? error.message : String(error));
}
