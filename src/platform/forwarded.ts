// The public site calls the platform for its visitors, all from its own address, so per-address limits
// would count every visitor together (one flood of unknown host names spends everybody's allowance).
// The site therefore proves itself with a shared secret (SITE_API_KEY) and names the visitor; only then
// is the named address believed. Anyone else's header is ignored (TRUST_PROXY rules are separate).

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { CLIENT_IP_HEADER, SITE_KEY_HEADER, type SiteKeyVerdict } from '../shared/site-key.ts';

export { CLIENT_IP_HEADER, SITE_KEY_HEADER };

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * For SITE_API_KEY, what a call's X-Podium-Site-Key is worth: `accepted` when it matches the key
 * (compared in constant time), `refused` when it does not or the platform has no key, undefined when
 * none was sent. The answer carries the verdict back (app.ts), so a site can tell at its start that its
 * key is not this platform's: it says no more than whether the key it sent is right.
 */
export function siteKeyVerdict(key: string | undefined): (headers: IncomingHttpHeaders) => SiteKeyVerdict | undefined {
  const expected = key ? digest(key) : undefined;
  return (headers) => {
    const sent = headers[SITE_KEY_HEADER];
    if (sent === undefined) return undefined;
    // Equal-length digests: the comparison takes the same time whatever the sent value.
    if (typeof sent !== 'string' || !expected || !timingSafeEqual(digest(sent), expected)) return 'refused';
    return 'accepted';
  };
}

/** The address in X-Podium-Client-IP, when it is one (believe it only with an accepted key). */
export function forwardedAddress(headers: IncomingHttpHeaders): string | undefined {
  const ip = headers[CLIENT_IP_HEADER];
  if (typeof ip !== 'string') return undefined;
  const address = ip.trim();
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return isIP(plain) === 0 ? undefined : plain.toLowerCase();
}

/**
 * For SITE_API_KEY, the reader of a call's forwarded client address: the address in X-Podium-Client-IP
 * when X-Podium-Site-Key matches the key, else undefined (the caller's own address applies). Without a
 * key nothing is ever believed.
 */
export function forwardedClient(key: string | undefined): (headers: IncomingHttpHeaders) => string | undefined {
  const verdict = siteKeyVerdict(key);
  return (headers) => (verdict(headers) === 'accepted' ? forwardedAddress(headers) : undefined);
}
