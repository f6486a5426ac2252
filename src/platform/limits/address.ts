// A client's address as the throttles count it. One IPv6 host commonly holds a whole /64 (SLAAC,
// privacy addresses), so a budget per full IPv6 address is a budget per try: wrong passwords,
// access codes and links are counted per /64 there, per address for IPv4 (a /24 would lump the
// customers of a provider together).

/** The eight groups of an IPv6 address (zone dropped, `::` expanded, hex without leading zeros); undefined otherwise. */
export function ipv6Groups(ip: string): string[] | undefined {
  const bare = ip.replace(/%.*$/, '');
  if (!/^[0-9a-f:]+$/i.test(bare) || !bare.includes(':')) return undefined;
  const [head, tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  if (groups.length !== 8 || groups.some((g) => g.length > 4)) return undefined;
  return groups.map((g) => Number.parseInt(g || '0', 16).toString(16));
}

/** What a throttle counts a client by: an IPv4 address (mapped ones too) as it is, an IPv6 one by its /64. */
export function throttleAddress(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1];
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}
