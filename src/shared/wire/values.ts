import { z } from 'zod';

// The values of wire rows (spec §1.2): every scalar is a string. A field a shape may leave out (a
// private event's gate, a public reader's view without the admin-only fields) reads as ''.

/** A string field; missing → ''. */
export const s = z.string().default('');
/** An id field: decimal digits. */
export const id = z.string().regex(/^\d+$/, 'must be an id');
/** An id field that may be blank ('': an answer that does not say whose it is); missing → ''. */
export const idOrBlank = z.string().regex(/^\d*$/, 'must be an id or blank').default('');

/** Plain string fields (each missing → ''), for the long runs of a row that need no note of their own. */
export const strings = <K extends string>(...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, s])) as Record<K, typeof s>;
