import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

// The SSRF guard (issue 14, item 6): a webhook's address is resolved when a delivery goes out, every
// address it resolves to is checked, and the connection goes to the checked address — so a name that
// resolved to a public address at registration and to 127.0.0.1 now (DNS rebinding) is refused, and
// so is one that answers both. Loopback, private, link-local (the cloud metadata service at
// 169.254.169.254 among them), carrier-grade NAT, unspecified and multicast addresses are refused,
// for IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as the IPv4 they carry), unless
// WEBHOOK_ALLOW_PRIVATE=1 (tests, development).

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether an address is one a webhook may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** node:dns lookup's shape (all addresses): what tests replace with a resolver they control. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

export class RefusedAddress extends Error {}

/**
 * The address to connect to for `hostname`: the first it resolves to, once every one is allowed.
 * Throws RefusedAddress naming the refused address.
 */
export async function safeAddress(hostname: string, resolve: Resolver, allowPrivate: boolean): Promise<LookupAddress> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await resolve(bare);
  if (addresses.length === 0) throw new RefusedAddress(`${bare} resolves to no address`);
  if (!allowPrivate)
    for (const a of addresses)
      if (isPrivateAddress(a.address))
        throw new RefusedAddress(`refused: ${bare} resolves to ${a.address}, a private address`);
  return addresses[0];
}
