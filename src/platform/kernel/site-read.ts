import { qOpt, LEVEL, type Context } from './table.ts';
import { grantSchema, readableEvent } from '../auth/grant.ts';
import { ApiError, notFound } from '../errors.ts';

// How the public website's reads (speakers, sponsors, tags, hotsite sections, the program) are
// authorized: an operation-side rule, since it reads the caller and the request's grant.

/** The `grant` of a public read of a private event (Podium extension, event.checkAccessCode). */
export const grantParam = qOpt(grantSchema, 'Podium extension: the grant of event.checkAccessCode (private events)');

/**
 * The rule of the site's public reads: anyone related to the event (any member, a company person)
 * reads it whatever its state; anyone else only a visible, non-template event, and a private one
 * with a valid grant (auth/grant.ts readableEvent: 404 / 403). `admin`: the caller is an admin of
 * the event and sees the personal fields the public shape hides.
 */
export async function siteReader(ctx: Context, eventID: number, grant: string | undefined) {
  const { access } = await readableEvent(ctx, eventID, grant);
  return { admin: access !== undefined && (access.level & LEVEL.ADMIN) !== 0 };
}

/**
 * siteReader for a read that names an object (speakerID, …) rather than the event: an object of an
 * event the caller may not see is reported as missing (404 naming the object), like an unknown id.
 */
export async function objectReader(ctx: Context, what: string, eventID: number, grant: string | undefined) {
  try {
    return await siteReader(ctx, eventID, grant);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound(what);
    throw err;
  }
}
