// A signed-in attendee on an event's site (docs/site.md "Comments"): the platform token person.signIn
// gave (with the event's eventID) kept in an HttpOnly, SameSite=Strict cookie scoped to the event's
// path, as `{eventID}.{token}`. Only the session page reads it (comment.find approved+me, comment.create,
// the token in an Authorization header); any request that carries it skips the shared page cache
// (pagekey.ts), and the page it personalizes is `private, no-store`. Nothing here trusts the token:
// the platform checks it on every call, and a refused one is dropped.

export const ATTENDEE_COOKIE = 'podium_attendee';
/** How long the browser keeps the cookie (a token lasts TOKEN_TTL_DAYS, 30 by default: it may end sooner). */
export const ATTENDEE_COOKIE_DAYS = 7;

const VALUE = /^(\d{1,15})\.([A-Za-z0-9_-]{20,200})$/;

/** The token for this event when the cookie holds one of it; undefined otherwise. */
export function attendeeToken(cookie: string | undefined, eventID: number): string | undefined {
  const m = cookie ? VALUE.exec(cookie) : null;
  return m && Number(m[1]) === eventID ? m[2] : undefined;
}

export const attendeeCookieValue = (eventID: number, token: string) => `${eventID}.${token}`;

/** The cookie's options: the event's path only, never readable by scripts, never sent by another site's request. */
export function attendeeCookieOptions(base: string, secure: boolean, now: number, keep = true) {
  return {
    path: base || '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure,
    expires: new Date(keep ? now + ATTENDEE_COOKIE_DAYS * 86400_000 : 0),
  };
}

/** The path the sign-in form returns to: a path of this event only (no other host, no scheme-relative URL). */
export function nextWithin(raw: string, base: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  const safe = /^\/(?![/\\])[^\\\s\x00-\x1f\x7f]*$/.test(raw);
  const inEvent = base === '' || raw === base || raw.startsWith(`${base}/`) || raw.startsWith(`${base}?`);
  return safe && inEvent ? raw : fallback;
}
