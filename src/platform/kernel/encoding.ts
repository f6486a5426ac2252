// Content negotiation for answers (issue 11, item 5): which compression a client takes, and whether
// the answer it holds (If-None-Match) is still the current one.

// The negotiation itself lives in src/shared (the site uses it too and may not import the platform);
// re-exported here so the platform's importers keep their path.
export { preferredEncoding, type Encoding } from '../../shared/encoding.ts';

/** Whether an If-None-Match header names `etag` (or is `*`); weak tags compare by their value. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header
    .slice(0, 4096)
    .split(',')
    .some((t) => t.trim().replace(/^W\//, '') === etag);
}
