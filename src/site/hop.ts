// The hop from the front thread (front-worker.ts) to the renderer (server.ts) over loopback: the
// renderer's socket then shows the front's address, not the visitor's. The front sends the visitor's
// socket address in a header, with a secret made at each start that only the two threads know; the
// renderer believes the address only with the secret, and drops both headers either way, so a visitor
// cannot name an address of their choosing (X-Forwarded-For is still read as before: believed from
// TRUST_PROXY addresses only, src/net/trust-proxy.ts).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const PEER_HEADER = 'x-podium-peer';
export const SECRET_HEADER = 'x-podium-front';

export function newHopSecret(): string {
  return randomBytes(24).toString('base64url');
}

/** Headers that belong to one connection, not to the request or answer carried (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'upgrade',
  'trailer',
]);

/** The request's headers as the front sends them on: the visitor's socket address with the secret. */
export function hopHeaders(
  headers: IncomingHttpHeaders,
  peer: string | undefined,
  secret: string,
): IncomingHttpHeaders {
  const out = copyWithout(headers, NOT_SENT_ON);
  out[PEER_HEADER] = peer ?? '';
  out[SECRET_HEADER] = secret;
  return out;
}

/**
 * Nor is a visitor's `Expect: 100-continue` sent on: the front's server answered it already (and the
 * front's HTTP client, undici, refuses to send it).
 */
const NOT_SENT_ON = new Set([...HOP_BY_HOP, 'expect']);

/** A copy without the hop-by-hop headers. */
export function withoutHopByHop<T extends Record<string, unknown>>(headers: T): T {
  return copyWithout(headers, HOP_BY_HOP);
}

/** Built, not deleted from: an object that lost keys is slower to read. */
function copyWithout<T extends Record<string, unknown>>(headers: T, drop: ReadonlySet<string>): T {
  const out: Record<string, unknown> = {};
  for (const name in headers) if (!drop.has(name)) out[name] = headers[name];
  return out as T;
}

/**
 * The visitor's socket address of a request that reached the renderer: the one the front names, when
 * it comes with this start's secret; otherwise the request's own socket's. The hop's headers are removed.
 */
export function takePeer(
  req: { headers: IncomingHttpHeaders; socket: { remoteAddress?: string } },
  secret: string | undefined,
): string | undefined {
  const peer = req.headers[PEER_HEADER];
  const given = req.headers[SECRET_HEADER];
  delete req.headers[PEER_HEADER];
  delete req.headers[SECRET_HEADER];
  const own = req.socket.remoteAddress;
  if (secret === undefined || typeof given !== 'string' || typeof peer !== 'string') return own;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b) ? peer || own : own;
}
