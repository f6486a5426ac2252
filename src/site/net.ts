// Who is asking, and for which host: the visitor's address (believing X-Forwarded-For only from
// TRUST_PROXY addresses, like the platform does), whether the visitor came over https, and the Host
// header as a validated, lower-case host name.

import { BlockList, isIP } from 'node:net';

/** What the visitor's address and scheme are read from: a node request, or the same fields of a Request. */
export interface Asker {
  socket: { remoteAddress?: string; encrypted?: boolean };
  headers: Record<string, string | string[] | undefined>;
}

/** TRUST_PROXY (comma-separated addresses or CIDRs) → a matcher; empty → trusts nobody. */
export function trustList(spec: string | undefined): (address: string) => boolean {
  const list = new BlockList();
  let any = false;
  for (const raw of (spec ?? '').split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const [addr, bits] = item.split('/');
    const family = isIP(addr);
    if (family === 0) continue;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits !== undefined && /^\d{1,3}$/.test(bits)) list.addSubnet(addr, Number(bits), type);
    else list.addAddress(addr, type);
    any = true;
  }
  if (!any) return () => false;
  return (address: string) => {
    const a = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
}

const plain = (address: string) =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

/**
 * The visitor's address: the socket's, or — when the socket is a trusted proxy — the right-most address
 * of X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientIp(req: Asker, trusted: (address: string) => boolean): string {
  let address = plain(req.socket.remoteAddress ?? '');
  if (!trusted(address)) return address;
  const header = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => isIP(plain(s)) !== 0);
  for (let i = chain.length - 1; i >= 0; i--) {
    address = plain(chain[i]);
    if (!trusted(address)) return address;
  }
  return address;
}

/** Whether the visitor used https: a TLS socket, or X-Forwarded-Proto https from a trusted proxy. */
export function isHttps(req: Asker, trusted: (address: string) => boolean): boolean {
  if (req.socket.encrypted) return true;
  if (!trusted(plain(req.socket.remoteAddress ?? ''))) return false;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : (proto ?? '')).split(',')[0].trim().toLowerCase();
  return first === 'https';
}

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
 * The largest request body the site takes (the access-code and new-password forms need far less). The
 * front server answers 413 to a larger Content-Length before Astro reads it; the adapter's own limit
 * (astro.config.mjs, the same figure) still stops a chunked body that grows past it.
 */
export const BODY_LIMIT = 16 * 1024;
