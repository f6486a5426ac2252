// Content negotiation for the platform's answers and the site's alike (issue 11, item 5): which
// compression a client takes, and whether the copy it holds is current — one reading of each header, so
// the API and the site never disagree about what it means.

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to send for an Accept-Encoding header: br when taken, else gzip, else none. A coding
 * with q=0 is refused; `*` stands for any coding not named. Linear in the header, and a long header
 * is read only to its first 256 characters (no client needs more to say br or gzip).
 */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined || header === '') return undefined;
  // Clients send a handful of distinct headers: each is read once (the cache's hit path asks per call).
  if (seen.has(header)) return seen.get(header);
  const chosen = negotiate(header);
  if (header.length > 256) return chosen; // a header no browser sends is not worth keeping
  if (seen.size >= SEEN_MAX) seen.delete(seen.keys().next().value!);
  seen.set(header, chosen);
  return chosen;
}

const SEEN_MAX = 64;
const seen = new Map<string, Encoding | undefined>();

function negotiate(header: string): Encoding | undefined {
  const q = new Map<string, number>();
  for (const part of header.slice(0, 256).split(',')) {
    const [name = '', ...rest] = part.trim().toLowerCase().split(';');
    const param = rest.map((r) => r.trim()).find((r) => r.startsWith('q='));
    const weight = param === undefined ? 1 : Number(param.slice(2));
    q.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/**
 * Whether an If-None-Match header names `etag` (or is `*`): the client's copy is current → 304. Weak
 * comparison (RFC 9110 §13.1.2): `W/` is ignored on both sides. The site's pages and the platform's
 * answers alike.
 */
export function notModified(ifNoneMatch: string | undefined | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const raw of ifNoneMatch.slice(0, 4096).split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === bare) return true;
  }
  return false;
}

/**
 * What a request takes of a stored answer: 304 when the copy it holds is current, else the encoding to
 * send the answer in (undefined: as it is). One choice for the site's page cache, in both of its
 * threads, and the platform's answer cache. The bare `===` first: a browser sends back the one tag it
 * was given, and the 304's path is the one measured against a bare server.
 */
export function takes(
  etag: string,
  compressible: boolean,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): 304 | Encoding | undefined {
  if (ifNoneMatch !== undefined && (ifNoneMatch === etag || notModified(ifNoneMatch, etag))) return 304;
  return compressible ? preferredEncoding(acceptEncoding) : undefined;
}
