// A signed-in attendee on an event's site (docs/site.md "Signed-in attendees"): one cookie for the whole
// event site — the sign-in page (/signin, for comments) and the e-mailed link of "My registration" (/me)
// both keep the platform's token in it, and every event page reads it to say who is signed in.
//
// The cookie `podium_attendee` = `{eventID}.{token}`: HttpOnly, SameSite=Lax (a link from an e-mail opens
// /me signed in; another site's POST never carries it, and every form also checks the origin), Secure
// over https, Path = the event's path (`/` on its own domain), 7 days. Any request that carries it skips
// the shared page cache (pagekey.ts, route.ts), and a page that reads it is `private, no-store`. Nothing
// here trusts the token: the platform checks it on every call, and one it refuses is dropped.

import { isPodiumError, type Attendee } from '../client/index.ts';
import type { RequestContext } from './context.ts';
import { ATTENDEE_COOKIE, serializeCookie } from './grant.ts';

export { ATTENDEE_COOKIE };
/** How long the browser keeps the cookie (a token lasts TOKEN_TTL_DAYS, 30 by default: it may end sooner). */
export const ATTENDEE_COOKIE_DAYS = 7;

const VALUE = /^(\d{1,15})\.([A-Za-z0-9_-]{20,200})$/;

/** The token for this event when the cookie holds one of it; undefined otherwise. */
export function attendeeToken(cookie: string | undefined, eventID: number): string | undefined {
  const m = cookie ? VALUE.exec(cookie) : null;
  return m && Number(m[1]) === eventID ? m[2] : undefined;
}

export const attendeeCookieValue = (eventID: number, token: string) => `${eventID}.${token}`;

/** The cookie's options (Astro.cookies.set): the event's path only, never readable by scripts. */
export function attendeeCookieOptions(base: string, secure: boolean, now: number, keep = true) {
  return {
    path: base || '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    expires: new Date(keep ? now + ATTENDEE_COOKIE_DAYS * 86400_000 : 0),
  };
}

/** Set-Cookie that deletes the cookie of the event at `base` (what the middleware sends after a refused token). */
export const attendeeCookieCleared = (base: string, secure: boolean) =>
  serializeCookie(ATTENDEE_COOKIE, '', { path: base || '/', secure, expires: 0 });

/** The path the sign-in form returns to: a path of this event only (no other host, no scheme-relative URL). */
export function nextWithin(raw: string, base: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  const safe = /^\/(?![/\\])[^\\\s\x00-\x1f\x7f]*$/.test(raw) && !hasDotSegment(raw);
  const inEvent = base === '' || raw === base || raw.startsWith(`${base}/`) || raw.startsWith(`${base}?`);
  return safe && inEvent ? raw : fallback;
}

/** Whether a path has a `.` or `..` segment (or `%2e` for either dot): `/demo/summit/../../x` is `/x`. */
function hasDotSegment(raw: string): boolean {
  const path = raw.split(/[?#]/, 1)[0];
  return path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

/** Who is signed in on this event's site, as the platform says (its token still good). */
export interface SignedIn {
  token: string;
  /** The attendee's own record; undefined when the token's person is not an attendee (an organizer's system sign-in). */
  attendee: Attendee | undefined;
  /** The name to show ('' when unknown). */
  name: string;
  /** The platform could not say now (too many calls with this token, or unreachable): still signed in. */
  unknown?: boolean;
}

const memo = new WeakMap<RequestContext, Map<number, Promise<SignedIn | undefined>>>();

/**
 * The signed-in attendee of the request for the event: the cookie's token, checked by reading the
 * attendee's own record (event.person.get) — once per request, whoever asks (the header, /me). A request
 * with the cookie is one person's: never stored nor shared (`cacheable` false). A token the platform
 * refuses (expired, revoked, another event's) is no sign-in, and the middleware deletes the cookie.
 */
export function signedIn(ctx: RequestContext, eventID: number, base: string): Promise<SignedIn | undefined> {
  const token = attendeeToken(ctx.cookies.get(ATTENDEE_COOKIE), eventID);
  if (ctx.cookies.has(ATTENDEE_COOKIE)) ctx.cacheable = false;
  if (!token) return Promise.resolve(undefined);
  let byEvent = memo.get(ctx);
  if (!byEvent) memo.set(ctx, (byEvent = new Map()));
  let found = byEvent.get(eventID);
  if (!found) {
    found = ctx.runtime.client.attendeeMine(eventID, token, ctx.call).then(
      (attendee): SignedIn => ({ token, attendee, name: attendee.name || attendee.firstName || attendee.email }),
      (err: unknown): SignedIn | undefined => {
        if (isPodiumError(err) && err.status === 404) return { token, attendee: undefined, name: '' };
        if (isPodiumError(err) && (err.status === 401 || err.status === 403)) {
          ctx.clearAttendee = base || '/';
          return undefined;
        }
        // Too many calls with this token, or the platform down: still signed in (the header says so without
        // a name); the cookie stays.
        if (!(isPodiumError(err) && err.status === 429))
          console.error('site: the signed-in attendee could not be read:', isPodiumError(err) ? err.status : err);
        return { token, attendee: undefined, name: '', unknown: true };
      },
    );
    byEvent.set(eventID, found);
  }
  return found;
}

/**
 * Signs out: the platform ends the token at once (person.signOut; a platform without it, or a token it
 * already refuses, changes nothing here) and the cookie is deleted by the caller.
 */
export async function revokeAttendee(ctx: RequestContext, eventID: number): Promise<void> {
  const token = attendeeToken(ctx.cookies.get(ATTENDEE_COOKIE), eventID);
  if (token) await endToken(ctx, token);
}

/**
 * Ends a token at the platform (person.signOut): the attendee's on signing out, the door staff's on the
 * check-in page, one minted for an account the page then refuses. A token the platform already refuses
 * changes nothing; any other failure is logged, and the caller deletes its cookie all the same.
 */
export async function endToken(ctx: RequestContext, token: string): Promise<void> {
  try {
    await ctx.runtime.client.personSignOut(token, ctx.call);
  } catch (err) {
    // Deleting the cookie still signs this browser out; the log says why the token could not be ended.
    if (!(isPodiumError(err) && err.status === 401))
      console.error('site: person.signOut failed:', isPodiumError(err) ? err.status : err);
  }
}
