// Whether a form POST comes from a page of this site: the site's forms refuse posts made by other sites;
// and whether an address given in a query is a page of this site, before a page links to it.

import type { HostResolver } from './hosts.ts';
import { hostOf } from './net.ts';

/**
 * True when the browser says the POST came from this host. Fetch Metadata first (`Sec-Fetch-Site`,
 * sent by every current browser and independent of the page's Referrer-Policy); else the `Origin`'s
 * host name. A page served with `Referrer-Policy: no-referrer` makes its own posts carry
 * `Origin: null`, and old browsers and non-browser clients send none: those pass, as they carry no
 * sign of another site.
 */
export function postedFromHere(headers: Headers, hostname: string): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  if (fetchSite !== null) return fetchSite === 'same-origin';
  const origin = headers.get('origin');
  if (!origin || origin === 'null') return true;
  try {
    return new URL(origin).hostname === hostname;
  } catch {
    return false;
  }
}

/**
 * `raw` when it is the address of a sign-in page of this site — the platform's own (its origin exactly) or
 * an event's domain (default port) — else undefined. /podium-password links back to the sign-in page
 * that sent the visitor there ("Forgot your password?", `?back=`), and never to another site.
 */
export async function ownSignInPage(
  raw: string | null,
  runtime: { siteUrl: string; hosts: HostResolver },
  visitor: string,
): Promise<string | undefined> {
  if (!raw || raw.length > 2048 || !URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || !url.pathname.endsWith('/signin'))
    return undefined;
  if (url.origin === new URL(runtime.siteUrl).origin) return url.href;
  const host = url.port === '' ? hostOf(url.host) : undefined;
  if (!host) return undefined;
  try {
    return (await runtime.hosts.resolve(host, visitor)).kind === 'event' ? url.href : undefined;
  } catch {
    return undefined; // the platform could not say: no link
  }
}
