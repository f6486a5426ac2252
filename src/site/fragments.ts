// Precomputed byte fragments. The largest parts of a page — a 300-session grid or list, the event's
// JSON-LD — are made once per program (see program.ts) and kept as UTF-8 bytes. A page puts a marker
// where such a fragment goes; the middleware replaces the markers with the bytes after Astro rendered
// the rest. So a render neither re-escapes nor re-encodes them: encoding a 100 KB page to UTF-8 was a
// third of a cold render.

import { LRUCache } from 'lru-cache';
import { keptText } from '../net/bytes.ts';
import type { RequestContext } from './context.ts';

const MARKER_PREFIX = '<!--podium:fragment:';
const MARKER_SUFFIX = '-->';

/** The marker of a fragment of this render (HTML comment; replaced by the bytes before the page is sent). */
export function fragmentMarker(ctx: RequestContext, bytes: Buffer): string {
  const list = (ctx.fragments ??= []);
  list.push(bytes);
  return `${MARKER_PREFIX}${list.length - 1}${MARKER_SUFFIX}`;
}

/** The markers' bytes by number (a page places a few). */
const markerBytes: Buffer[] = [];

/**
 * The page with each marker replaced by its fragment's bytes. Each marker appears once, but not
 * necessarily in the order the markers were made: Astro renders a page's components concurrently, so a
 * fragment that awaited its rendering (Memo.astro) may take its number after one placed below it.
 */
export function spliceFragments(page: Buffer, fragments: readonly Buffer[]): Buffer {
  const found: { at: number; end: number; bytes: Buffer }[] = [];
  for (let i = 0; i < fragments.length; i++) {
    const marker = (markerBytes[i] ??= Buffer.from(`${MARKER_PREFIX}${i}${MARKER_SUFFIX}`));
    const at = page.indexOf(marker);
    // (a fragment the page did not render: a branch not taken)
    if (at >= 0) found.push({ at, end: at + marker.length, bytes: fragments[i] });
  }
  if (found.length === 0) return page;
  found.sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  let from = 0;
  for (const f of found) {
    parts.push(page.subarray(from, f.at), f.bytes);
    from = f.end;
  }
  parts.push(page.subarray(from));
  return Buffer.concat(parts);
}

const bytesOf = new LRUCache<string, Buffer>({ max: 500, memoMethod: (text) => keptText(text) });

/** A string's UTF-8 bytes, remembered for strings that are themselves remembered (at most 500). */
export function memoBytes(text: string): Buffer {
  return bytesOf.memo(text);
}

const remembered = new WeakMap<object, LRUCache<string, Buffer>>();

/** What is remembered of `of` (at most 200 variants; forgotten with `of` itself). */
function rememberedOf(of: object): LRUCache<string, Buffer> {
  let byKey = remembered.get(of);
  if (!byKey) remembered.set(of, (byKey = new LRUCache({ max: 200 })));
  return byKey;
}

/**
 * The HTML made of `of` (a platform answer or what is derived from it: the client gives the same object
 * for the same bytes) as UTF-8 bytes, remembered per `key` (what else the HTML depends on: language,
 * zone, links, filter). Pages place it with fragmentMarker.
 */
export function memoFragment(of: object, key: string, make: () => string): Buffer {
  const byKey = rememberedOf(of);
  let bytes = byKey.get(key);
  if (bytes === undefined) byKey.set(key, (bytes = keptText(make())));
  return bytes;
}

const ids = new WeakMap<object, number>();
let lastID = 0;

/** A number of its own for each object (while it lives), for keys made of several objects. */
function idOf(o: object | undefined): string {
  if (o === undefined) return '-';
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = ++lastID));
  return String(id);
}

/**
 * memoFragment for HTML Astro renders (Memo.astro renders its slot only when not remembered). HTML made
 * of several answers is kept under the first (`of`) and the others' identities (`also`): a new answer
 * of any of them is HTML made anew. The HTML may hold no fragment marker: a marker numbers a fragment of
 * one request.
 */
export async function memoRendered(
  of: object,
  key: string,
  render: () => Promise<string>,
  also: readonly (object | undefined)[] = [],
): Promise<Buffer> {
  const byKey = rememberedOf(of);
  const full = also.length === 0 ? key : `${also.map(idOf).join(',')}|${key}`;
  const known = byKey.get(full);
  if (known !== undefined) return known;
  const html = await render();
  if (html.includes(MARKER_PREFIX)) throw new Error('Memo: remembered HTML cannot hold a fragment marker');
  const bytes = keptText(html);
  byKey.set(full, bytes);
  return bytes;
}
