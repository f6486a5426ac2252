import { z } from 'zod';
import { REFUSED } from '../shared/refused.ts';

// Parameter schemas shared by operations. Every value arrives as a string (query or form body);
// messages complete a sentence that starts with the parameter's name: "eventID must be …".

/**
 * Ids are `integer` columns (serial on PostgreSQL): a larger number cannot name a row, and PostgreSQL
 * refuses to compare with it (a 500 before this bound; SQLite simply found nothing).
 */
export const MAX_ID = 2_147_483_647;

export const id = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n <= MAX_ID, `must be a positive integer up to ${MAX_ID}`);

/**
 * How many ids a list parameter holds (tagIDs, `tags:` of a selection): each becomes a bound value of
 * one query, and an anonymous registration's thousands of them were a 500 ("too many SQL variables").
 */
export const MAX_IDS = 100;

export const ids = z
  .string()
  .max(MAX_IDS * 11, `must list at most ${MAX_IDS} ids`)
  .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, 'must be positive integers separated by commas')
  .transform((v) => [...new Set(v.split(',').map(Number))])
  .refine((list) => list.length <= MAX_IDS, `must list at most ${MAX_IDS} ids`)
  .refine((list) => list.every((n) => n <= MAX_ID), `must be positive integers up to ${MAX_ID}`);

/** A whole number from 0 to MAX_ID: an offset, or a position in a log (`since`, `lastEventID`). */
export const wholeNumber = z.coerce
  .number('must be a whole number')
  .int('must be an integer')
  .min(0, 'must be at least 0')
  .max(MAX_ID, `must be at most ${MAX_ID}`);

/** `lastEventID` of the event streams (change.subscribe, push.subscribe): where a reconnect resumes. */
export const lastEventID = wholeNumber;
export const LAST_EVENT_ID_DOC =
  'resume after this change (the Last-Event-ID header says the same); older than the log keeps → one "reset" message';

export const bit = z.enum(['0', '1'], 'must be 0 or 1').transform(Number);

export const int = z
  .string()
  .regex(/^-?\d{1,15}$/, 'must be an integer')
  .transform(Number);

export const timestamp = z
  .string()
  .regex(/^\d{1,12}$/, 'must be a Unix timestamp in seconds')
  .transform(Number);

export const number = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'must be a number')
  .transform(Number);

export const text = (max = 1000) => z.string().max(max, `must be at most ${max} characters`);

/** A name or title that must say something: at most `max` characters, trimmed, not blank. */
export const nonBlank = (max: number) =>
  text(max)
    .transform((v) => v.trim())
    .refine((v) => v !== '', 'cannot be blank');

export const url = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'must be an http or https URL');

export const email = z
  .string()
  .max(320, 'must be at most 320 characters')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, REFUSED.email);

/** URL path segment: lower-case letters, digits and inner dashes. */
export const slug = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'must be lower-case letters, digits and dashes (at most 64)');

export const hostname = z
  .string()
  .max(253, 'must be at most 253 characters')
  .transform((v) => v.toLowerCase().replace(/\.$/, ''))
  .refine(
    (v) => /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(v),
    'must be a domain name such as events.example.com',
  );

/**
 * An IANA zone stored under its canonical name: `europe/lisbon` becomes `Europe/Lisbon` and `utc`
 * becomes `UTC`, so pages, calendars and the frab exports (which name the zone) never show a spelling
 * of the organizer's typing. Only Area/Location names and UTC are taken: ICU also knows legacy ids
 * such as `PST` or `EST5EDT`, which are ambiguous to a reader.
 */
export const timezone = z
  .string()
  .max(64, 'must be at most 64 characters')
  .transform((v, ctx) => {
    const name = (v.includes('/') || v.toUpperCase() === 'UTC') && canonicalZone(v);
    if (name) return name;
    ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone such as Europe/Lisbon' });
    return z.NEVER;
  });

function canonicalZone(v: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: v }).resolvedOptions().timeZone;
  } catch {
    return '';
  }
}

export const orientation = z.enum(['ASC', 'DESC'], 'must be ASC or DESC');

/**
 * The values a parameter takes, said in its refusals ("selection cannot be empty (values: all, …)"):
 * a caller who left it out or misspelt one learns the list from the line, as with edit keys.
 */
const VALUES = new WeakMap<z.ZodType, string>();
export const valuesOf = (schema: z.ZodType): string | undefined => VALUES.get(schema);

/** `selection=a|b|tags:1,2` (spec §4.2, §4.4): values combined with AND; tags carry a list. */
export function selection<const V extends readonly string[]>(values: V, withTags: boolean) {
  const allowed = new Set<string>(values);
  const list = [...values, ...(withTags ? ['tags:<id>,<id>'] : [])].join(', ');
  const schema = z.string().transform((raw, ctx) => {
    const out = { values: new Set<V[number]>(), tags: [] as number[] };
    for (const part of raw.split('|')) {
      if (withTags && part.startsWith('tags:')) {
        const list = part.slice(5).split(',');
        // Bounded like `id`: a tag id past the integer column made PostgreSQL fail the query (500).
        if (list.length > MAX_IDS) {
          ctx.addIssue({ code: 'custom', message: `tags: must list at most ${MAX_IDS} ids` });
          return z.NEVER;
        }
        if (!list.every((t) => /^[1-9]\d{0,9}$/.test(t) && Number(t) <= MAX_ID)) {
          ctx.addIssue({ code: 'custom', message: 'tags: must list positive integers separated by commas' });
          return z.NEVER;
        }
        out.tags.push(...list.map(Number));
      } else if (allowed.has(part)) {
        out.values.add(part as V[number]);
      } else {
        ctx.addIssue({ code: 'custom', message: `has an unknown value "${part.slice(0, 40)}" (values: ${list})` });
        return z.NEVER;
      }
    }
    return out;
  });
  VALUES.set(schema, list);
  return schema;
}
