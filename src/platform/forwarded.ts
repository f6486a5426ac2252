// The public site calls the platform for its visitors, all from its own address, so per-address limits
// would count every visitor together (one flood of unknown host names spends everybody's allowance).
// The site therefore proves itself with a shared secret (SITE_API_KEY) and names the visitor; only then
// is the named address believed. Anyone else's header is ignored (TRUST_PROXY rules are separate).

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** The site's shared secret. */
export const SITE_KEY_HEADER = 'x-podium-site-key';
/** The visitor's address, as the site saw it. */
export const CLIENT_IP_HEADER = 'x-podium-client-ip';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * For SITE_API_KEY, the reader of a call's forwarded client address: the address in X-Podium-Client-IP
 * when X-Podium-Site-Key matches the key (compared in constant time), else undefined (the caller's own
 * address applies). Without a key nothing is ever believed.
 */
export function forwardedClient(key: string | undefined): (headers: IncomingHttpHeaders) => string | undefined {
  if (!key) return () => undefined;
  const expected = digest(key);
  return (headers) => {
    const sent = headers[SITE_KEY_HEADER];
    const ip = headers[CLIENT_IP_HEADER];
    if (typeof sent !== 'string' || typeof ip !== 'string') return undefined;
    // Equal-length digests: the comparison takes the same time whatever the sent value.
    if (!timingSafeEqual(digest(sent), expected)) return undefined;
    const address = ip.trim();
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return isIP(plain) === 0 ? undefined : plain.toLowerCase();
  };
}
