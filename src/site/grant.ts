// The unlocked state of a private event in the visitor's browser. The platform's event.checkAccessCode
// returns a signed, expiring grant (`<eventID>.<expires>.<signature>`, checked by the platform on every
// read); the site keeps it in an HttpOnly cookie on its own origin, scoped to the event's path, expiring
// with the grant. Nothing here trusts the grant: the platform verifies it on each call, and a refused
// grant sends the visitor back to the access-code page.

export const GRANT_COOKIE = 'podium_grant';
export const LANG_COOKIE = 'podium_lang';
/** A signed-in attendee's cookie (attendee.ts): named here, with the others, for the page key (pagekey.ts). */
export const ATTENDEE_COOKIE = 'podium_attendee';

/** Cookies of a Cookie header (first value of each name wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === '' || out.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      out.set(name, value);
    }
  }
  return out;
}

const GRANT = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{10,100})$/;

/** The grant's event and expiry (Unix seconds) when it has a grant's shape; undefined otherwise. */
export function grantInfo(grant: string | undefined): { eventID: number; expires: number } | undefined {
  const m = grant ? GRANT.exec(grant) : null;
  return m ? { eventID: Number(m[1]), expires: Number(m[2]) } : undefined;
}

/** The grant for this event if the cookie holds one that has not expired. */
export function usableGrant(grant: string | undefined, eventID: number, now = Date.now() / 1000): string | undefined {
  const info = grantInfo(grant);
  return info && info.eventID === eventID && info.expires > now ? grant : undefined;
}

/**
 * Astro's cookie options for a grant kept for the event whose pages are under `path`: HttpOnly, expiring
 * with the grant (`expires`, Unix seconds). The access-code page and /me's sign-in link keep one.
 */
export const grantCookieOptions = (path: string, expires: number, secure: boolean) =>
  ({ path, expires: new Date(expires * 1000), httpOnly: true, sameSite: 'lax', secure }) as const;

export interface CookieOptions {
  path: string;
  secure: boolean;
  /** Unix seconds; 0 deletes the cookie. */
  expires: number;
  httpOnly?: boolean;
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${o.path}`, 'SameSite=Lax'];
  if (o.expires === 0) parts.push('Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  else parts.push(`Expires=${new Date(o.expires * 1000).toUTCString()}`);
  if (o.httpOnly !== false) parts.push('HttpOnly');
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}
