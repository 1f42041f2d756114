import * as v from 'valibot';

/** A whole number of rows, never negative. */
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A write that succeeded says so (a refused one is an error answer with `acknowledged: false`). */
const acknowledged = v.literal(true);

export const Acknowledged = v.strictObject({ acknowledged });
export type Acknowledged = v.InferOutput<typeof Acknowledged>;

export const Inserted = v.strictObject({ acknowledged, insertedId: v.string() });
export type Inserted = v.InferOutput<typeof Inserted>;

export const Modified = v.strictObject({ acknowledged, modifiedCount: count, message: v.string() });
export type Modified = v.InferOutput<typeof Modified>;

export const Deleted = v.strictObject({ acknowledged, deletedCount: count });
export type Deleted = v.InferOutput<typeof Deleted>;
