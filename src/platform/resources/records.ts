import type { z } from 'zod';

// A record builder declares the wire row (src/shared/wire) it makes, as a resource's field list does
// (crud/resource.ts): the record must have exactly the row's keys, or the builder does not compile. A
// key added to the row and not to the builder, or sent by the builder and not in the row, is a compile
// error, not a field the client drops or reads as ''. Only the keys are checked: values are as stored
// (numbers, strings, null, nested rows) until the envelope makes each a string (kernel/wire.ts).

type Output<W extends z.ZodObject> = z.output<W>;

/** The value of a record's key: any stored value; an array of rows has its row's keys. */
type Stored<V> = V extends readonly (infer E)[]
  ? E extends object
    ? readonly { [K in keyof E]: unknown }[]
    : V
  : unknown;

/** A record of the wire row W as a builder holds it: W's keys (optional where W's are), values as stored. */
export type RecordOf<W extends z.ZodObject> = { [K in keyof Output<W>]: Stored<Output<W>[K]> };

/** Keys of R that the wire row W lacks, or the other way round (never when they agree). */
export type KeyDrift<R, W extends z.ZodObject> = Exclude<keyof R, keyof Output<W>> | Exclude<keyof Output<W>, keyof R>;

type Exactly<R, W extends z.ZodObject> = [KeyDrift<R, W>] extends [never]
  ? unknown
  : { readonly 'the record and its wire row differ in': KeyDrift<R, W> };

/**
 * The builder of W's records: it hands back the record it is given, unchanged, and compiles only when
 * that record has exactly W's keys — an object spread into it included, which an annotation alone
 * (excess property checks) would let through.
 */
export const recordOf =
  <W extends z.ZodObject>(_wire: W) =>
  <R extends RecordOf<W>>(record: R & Exactly<R, W>): R =>
    record;

/** A list of W's keys (the columns a query selects as the record): compiles only when it names exactly W's keys. */
export const keysOf =
  <W extends z.ZodObject>(_wire: W) =>
  <const L extends readonly (keyof Output<W> & string)[]>(list: L & Exactly<Record<L[number], unknown>, W>): L =>
    list;
