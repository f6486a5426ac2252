// TRUST_PROXY, read one way wherever it is read: the platform's config (a bad value stops the start
// with a readable line), the API (app.ts: whose X-Forwarded-For names the caller) and the site (net.ts,
// and `astro dev`'s runtime, which reads the environment itself). Three readers used to differ: the
// config took `127.0.0.1,` (a trailing comma) and the API's proxy-addr then stopped with a stack; the
// site skipped what it could not read without a word. Node-side code (node:net) that the platform and
// the site both import: it imports nothing of either (eslint.config.js).

import { BlockList, isIP } from 'node:net';

/** What the visitor's address and scheme are read from: a node request, or the same fields of a Request. */
export interface Asker {
  socket: { remoteAddress?: string; encrypted?: boolean };
  headers: Record<string, string | string[] | undefined>;
}

interface Entry {
  address: string;
  family: 'ipv4' | 'ipv6';
  /** The prefix length of a CIDR; undefined for one address. */
  bits: number | undefined;
}

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is that IPv4 address: sockets report both forms. */
const plain = (address: string) =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

/** One item: an address, or an address with a prefix length it can have (`10.0.0.0/8`, `fd00::/8`). */
function entryOf(item: string): Entry | undefined {
  const [written, bits, more] = item.split('/');
  const address = bits === undefined ? plain(written) : written;
  const version = isIP(address);
  if (version === 0 || more !== undefined) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) return { address, family, bits: undefined };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128)) return undefined;
  return { address, family, bits: Number(bits) };
}

/** The items of a value: comma-separated, spaces around them and empty ones (`a,,b,`) ignored. */
const itemsOf = (spec: string) =>
  spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Why `spec` is not a TRUST_PROXY value, or undefined when it is one. */
export function trustProxyProblem(spec: string): string | undefined {
  const bad = itemsOf(spec).find((item) => entryOf(item) === undefined);
  if (bad === undefined) return undefined;
  return `must be IP addresses or CIDRs separated by commas (e.g. 127.0.0.1,10.0.0.0/8), not ${JSON.stringify(bad)}`;
}

/** TRUST_PROXY → whether an address is one of its proxies; unset or empty → trusts nobody. */
export function trustList(spec: string | undefined): (address: string) => boolean {
  const problem = spec === undefined ? undefined : trustProxyProblem(spec);
  // The config refuses such a value first; a caller that skipped it must not trust less, or more, silently.
  if (problem) throw new Error(`TRUST_PROXY ${problem}`);
  const entries = itemsOf(spec ?? '').map((item) => entryOf(item)!);
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const { address, family, bits } of entries) {
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, bits, family);
  }
  return (address: string) => {
    const a = plain(address);
    const version = isIP(a);
    return version !== 0 && list.check(a, version === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The visitor's address: the socket's, or — when the socket is a trusted proxy — the right-most address
 * of X-Forwarded-For that is not itself a trusted proxy (what is not an address is skipped).
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
