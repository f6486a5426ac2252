// Precomputed byte fragments. The largest parts of a page — a 300-session grid or list, the event's
// JSON-LD — are made once per program (see program.ts) and kept as UTF-8 bytes. A page puts a marker
// where such a fragment goes; the middleware replaces the markers with the bytes after Astro rendered
// the rest. So a render neither re-escapes nor re-encodes them: encoding a 100 KB page to UTF-8 was a
// third of a cold render.

import { LRUCache } from 'lru-cache';
import type { RequestContext } from './context.ts';

const MARKER_PREFIX = '<!--podium:fragment:';
const MARKER_SUFFIX = '-->';

/** The marker of a fragment of this render (HTML comment; replaced by the bytes before the page is sent). */
export function fragmentMarker(ctx: RequestContext, bytes: Buffer): string {
  const list = (ctx.fragments ??= []);
  list.push(bytes);
  return `${MARKER_PREFIX}${list.length - 1}${MARKER_SUFFIX}`;
}

/** The page with each marker replaced by its fragment's bytes (markers appear in order, each once). */
export function spliceFragments(page: Buffer, fragments: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < fragments.length; i++) {
    const marker = Buffer.from(`${MARKER_PREFIX}${i}${MARKER_SUFFIX}`);
    const at = page.indexOf(marker, from);
    if (at < 0) continue; // a fragment the page did not render (a branch not taken)
    parts.push(page.subarray(from, at), fragments[i]);
    from = at + marker.length;
  }
  if (parts.length === 0) return page;
  parts.push(page.subarray(from));
  return Buffer.concat(parts);
}

const bytesOf = new LRUCache<string, Buffer>({ max: 500, memoMethod: (text) => Buffer.from(text) });

/** A string's UTF-8 bytes, remembered for strings that are themselves remembered (at most 500). */
export function memoBytes(text: string): Buffer {
  return bytesOf.memo(text);
}
