import { z } from 'zod';
import { sql } from 'kysely';
import { text } from '../../schemas.ts';
import { sanitizeOrganizerHtml } from '../html.ts';

// What the public website's content (speakers, sponsors, tags, hotsite sections) has in common: the
// field schemas, the rule of its public reads, and text search.

/** Organizer HTML: sanitized on write (domain/html.ts). */
export const organizerHtml = text(50000).transform(sanitizeOrganizerHtml);

/** Display order inside a list: 0 first, ties broken by name. */
export const POSITION_MAX = 1_000_000;
export const position = z
  .string()
  .regex(/^\d{1,7}$/, `must be an integer from 0 to ${POSITION_MAX}`)
  .transform(Number)
  .refine((n) => n <= POSITION_MAX, `must be an integer from 0 to ${POSITION_MAX}`);

/** A colour as #rrggbb, stored in lower case. */
export const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')
  .transform((v) => v.toLowerCase());

/** A telephone number as people write it: digits with + ( ) . / - and spaces. */
export const telephone = z
  .string()
  .max(40, 'must be at most 40 characters')
  .regex(/^\+?[0-9][0-9 ()./-]{2,}$/, 'must be a telephone number such as +351 210 000 000');

/** Case-insensitive "contains" on a text column; % and _ in the text match themselves. */
export function contains(column: string, value: string) {
  const pattern = `%${value.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Order by a text column without regard to case (the same on SQLite and PostgreSQL for ASCII). */
export const lowerOf = (column: string) => sql`lower(${sql.ref(column)})`;

/** Drops the keys the public shape hides. */
export function without<T extends Record<string, unknown>>(row: T, hidden: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const k of hidden) delete out[k];
  return out;
}
