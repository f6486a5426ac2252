// What a public page depends on, as the page cache's key: the host name, the path and query as asked,
// the language chosen with the switcher (its cookie) and the best language of Accept-Language. Nothing
// else of the request: other cookies (analytics, the access grant: private pages are never stored) and
// the scheme do not change a public page. The front server (server.ts) computes it to answer from the
// cache before Astro; the middleware computes the same to store what it rendered. A request of a
// signed-in attendee (their cookie, attendee.ts) has no key: it is never answered from the cache, and
// what it renders (one person's page) is never stored for others.

import { LRUCache } from 'lru-cache';
import { isLocale, pickLocale, type Locale } from '../shared/i18n/messages.ts';
// Not from attendee.ts: the front thread (front-worker.ts) loads this module, and must not load the client.
import { ATTENDEE_COOKIE, LANG_COOKIE, parseCookies } from './grant.ts';
import { hostOf } from './net.ts';

/** Validated host names by Host header ('' when malformed): a server sees few distinct ones. */
const hostNames = new LRUCache<string, string>({ max: 10_000, memoMethod: (header) => hostOf(header) ?? '' });
/** The best supported language by Accept-Language header. */
const acceptLocales = new LRUCache<string, Locale>({ max: 10_000, memoMethod: (header) => pickLocale([header]) });

/** The Host header's validated host name (undefined when missing or malformed). */
export function hostnameOf(header: string | undefined | null): string | undefined {
  return header ? hostNames.memo(header) || undefined : undefined;
}

export function acceptLocaleOf(header: string | undefined | null): Locale {
  return header ? acceptLocales.memo(header) : 'en';
}

/** The language chosen with the switcher, if its cookie names a supported one. */
export function chosenLocaleOf(cookies: Map<string, string>): Locale | undefined {
  const chosen = cookies.get(LANG_COOKIE);
  return isLocale(chosen) ? chosen : undefined;
}

export function pageKey(hostname: string, pathAndQuery: string, chosen: Locale | undefined, accept: Locale): string {
  return `${hostname}|${pathAndQuery}|${chosen ?? ''}|${accept}`;
}

/** The key of a request as it reaches the front server (undefined: no valid Host, never a stored page). */
export function pageKeyOfRequest(
  hostHeader: string | undefined,
  pathAndQuery: string,
  cookieHeader: string | undefined,
  acceptLanguage: string | undefined,
): string | undefined {
  const hostname = hostnameOf(hostHeader);
  if (!hostname || cookieHeader?.includes(ATTENDEE_COOKIE)) return undefined;
  const chosen = cookieHeader?.includes(LANG_COOKIE) ? chosenLocaleOf(parseCookies(cookieHeader)) : undefined;
  return pageKey(hostname, pathAndQuery, chosen, acceptLocaleOf(acceptLanguage));
}
