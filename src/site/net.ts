// Who is asking, and for which host: the visitor's address (believing X-Forwarded-For only from
// TRUST_PROXY addresses, src/net/trust-proxy.ts, as the platform does), whether the visitor came over
// https, and the Host header as a validated, lower-case host name.

import type { ServerResponse } from 'node:http';
import { isIP } from 'node:net';

// The proxies and the visitor's address are read as the platform reads them: one module for both.
export { clientIp, isHttps, trustList, type Asker } from '../net/trust-proxy.ts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A DNS host name (lower case, no trailing dot) or IP literal; anything else → undefined. */
export function normalizeHostname(value: string): string | undefined {
  let host = value.trim().toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '' || host.length > 253) return undefined;
  if (isIP(host) !== 0) return host;
  const labels = host.split('.');
  return labels.every((l) => LABEL.test(l)) ? host : undefined;
}

/** The Host header's name without the port (IPv6 literals without brackets); undefined when malformed. */
export function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const h = header.trim();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return undefined;
    const rest = h.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    const ip = h.slice(1, end).toLowerCase();
    return isIP(ip) === 6 ? ip : undefined;
  }
  const colon = h.indexOf(':');
  if (colon >= 0 && !/^:\d{1,5}$/.test(h.slice(colon))) return undefined;
  return normalizeHostname(colon >= 0 ? h.slice(0, colon) : h);
}

/**
 * The largest request body the site takes (the access-code and new-password forms need far less): a
 * larger Content-Length is answered 413 before anything reads it, and a chunked body once it grows past
 * it (astro-http.ts readBody).
 */
export const BODY_LIMIT = 16 * 1024;

/** A body past BODY_LIMIT: said, and the connection ends (the rest of the body is not read). */
export function sendTooLarge(res: ServerResponse): void {
  res.setHeader('connection', 'close');
  sendText(res, 413, `request body too large (at most ${BODY_LIMIT} bytes)`);
}

/** A plain-text answer of one line, never cached: the front server's and the front thread's own answers. */
export function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  const { headers, body } = textAnswer(text, extra);
  res.writeHead(status, headers);
  res.end(body);
}

/** The headers and bytes of a one-line plain-text answer (sendText, and the renderer's to the front). */
export function textAnswer(text: string, extra: Record<string, string> = {}) {
  const body = Buffer.from(text);
  const headers = {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    ...extra,
  };
  return { headers, body };
}
