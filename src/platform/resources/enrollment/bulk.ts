import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import { MAX_ID } from '../../schemas.ts';
import { LEVEL } from '../../auth/levels.ts';
import { enrollInEvent, nameParts } from '../attendee/enroll.ts';
import { createPerson, findPersonByEmail } from '../person/repository.ts';
import { isAttendee } from './rules.ts';

/** Most pairs of one `content` list, and most rows of one `path` file: one call stays one short transaction. */
export const MAX_BULK = 1000;
/** Longest `content` text accepted (about 1000 pairs with spaces). */
export const MAX_CONTENT = 100_000;

/** An id inside a JSON list: a positive integer, as a number or a string of digits. */
const jsonID = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/)
      .transform(Number),
  ])
  .refine((n) => Number.isInteger(n) && n >= 1 && n <= MAX_ID, 'must be a positive integer');
const pairs = z.array(z.object({ activityID: jsonID, personID: jsonID }));

export interface Pair {
  readonly activityID: number;
  readonly personID: number;
}

/**
 * The `content` of the multi-activity forms (spec §4.6): a JSON list of {activityID, personID}, ids as
 * numbers or strings; other keys are ignored, repeated pairs count once. 400 naming the problem.
 */
export function parseContent(content: string): Pair[] {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw badRequest('content must be JSON: a list of objects with activityID and personID');
  }
  const parsed = pairs.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length
      ? ` (item ${Number(issue.path[0]) + 1}${issue.path[1] ? ` ${String(issue.path[1])}` : ''})`
      : '';
    throw badRequest(`content must be a list of objects with activityID and personID as positive integers${where}`);
  }
  if (parsed.data.length === 0) throw badRequest('content must list at least one activityID and personID');
  if (parsed.data.length > MAX_BULK) throw badRequest(`content can list at most ${MAX_BULK} items`);
  const seen = new Set<string>();
  return parsed.data.filter((p) => {
    const key = `${p.activityID}:${p.personID}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The person of an admin's name/e-mail bind: found by e-mail (or username), else created with the
 * e-mail as username; enrolled in the event (enrollInEvent, level User) when not an attendee yet.
 */
export async function attendeeByEmail(
  db: Kysely<DB>,
  eventID: number,
  email: string,
  name: string,
  now: number,
): Promise<number> {
  email = email.toLowerCase();
  const names = nameParts(name.trim() || email.split('@')[0]);
  const existing = await findPersonByEmail(db, email);
  const personID = existing?.personID ?? (await createPerson(db, { username: email, email, ...names }, now));
  if (!(await isAttendee(db, eventID, personID))) {
    // The event's profile of the new attendee is what the caller sent, whoever the person is elsewhere.
    const profile = { username: email, email, ...names };
    await enrollInEvent(db, { eventID, personID, level: LEVEL.USER, origin: 'activity.person.bind', ...profile }, now);
  }
  return personID;
}

/** Runs one row of a bulk form; an error names it as `${label} ${index + 1}`. */
export async function inRow<T>(label: string, index: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError)
      throw new ApiError(err.status, `${label} ${index + 1}: ${err.message}`, { ...err.headers });
    throw err;
  }
}

/**
 * The pairs of a `content` list whose activities are all in the event the call names (checked before
 * any lock is taken): an activity of another event, or none, is a 404 naming the item.
 */
export async function contentOfEvent(db: Kysely<DB>, eventID: number, content: string): Promise<Pair[]> {
  const list = parseContent(content);
  const ids = [...new Set(list.map((x) => x.activityID))];
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('activity')
      .select('activityID')
      .where('eventID', '=', eventID)
      .where('activityID', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) found.add(r.activityID);
  }
  const missing = list.findIndex((x) => !found.has(x.activityID));
  if (missing >= 0) throw notFound(`content item ${missing + 1}: activity`);
  return list;
}
