// Pages as served in production: the rendered bytes of public pages, in memory, keyed by host, path,
// query and language. The site talks to the platform only over HTTP. Each page remembers the platform
// answers it was built from (call + fingerprint of the bytes) and what it shows (its company). While
// the platform's change stream is live (client/follow.ts), a page is served as is until a change of
// its company (or one the stream cannot place) arrives: with no edits the site asks the platform
// nothing. Without the stream (it dropped, or the platform has none), a page is served as is for
// FRESH_MS. Either way, a stale page's next request re-reads its answers, past the platform's cache, and
// compares fingerprints — the same bytes: the page stays, fresh again; anything different: the page is
// dropped and rendered anew. A re-check costs a few small reads, not a render. Concurrent requests for
// a stale page share one re-check. Memory is bounded by bytes (least recently used pages go first).
// Each page keeps its br and gzip variants, compressed once on the first request that takes them
// (and shared by the requests waiting meanwhile), not on every hit. With a front thread (front.ts), what
// the cache holds as fresh is copied there (mirror.ts), and the front answers it without this thread.

import { LRUCache } from 'lru-cache';
import type { Dependency, Follow } from '../client/index.ts';
import type { Scope } from '../shared/freshness.ts';
import { ownBytes } from '../net/bytes.ts';
import { compressText, worthCompressing, type Encoding } from './compress.ts';
import type { MirroredPage, MirrorMessage } from './mirror.ts';

/** A page as one encoding sends it: the compressed bytes and the headers that go with them. */
export interface Variant {
  body: Buffer;
  headers: Record<string, string>;
}

export interface CachedPage {
  status: number;
  /** Response headers (ETag, Cache-Control, CSP, Vary, …) as written on a hit. */
  headers: Record<string, string>;
  /** The headers of a 304 for this page (ETag, Cache-Control, Vary). */
  headers304: Record<string, string>;
  body: Buffer;
  etag: string;
  deps: Dependency[];
  /** What the page shows (its company, or anything): a change of this scope makes it stale while the change stream is live. */
  scope: Scope;
  /** The change stream's mark when the page's reads began (or its last re-check). */
  mark: number;
  /** Until when (ms since epoch) the page is served without a re-check, while the change stream is not live. */
  freshUntil: number;
  /** After this (ms since epoch) the page is rendered again even if its sources did not change (time-dependent content). */
  expires: number;
  /** The page's key in the cache (a variant made after the page left it is not counted against the memory). */
  key: string;
  /** Whether the page is worth compressing (a text type, long enough). */
  compressible: boolean;
  /** br and gzip variants: made, or being made. */
  variants: Partial<Record<Encoding, Variant | Promise<Variant | undefined>>>;
  /** Bytes held for the page: its body and its variants. */
  size: number;
}

export interface PageCacheOptions {
  /** Milliseconds a page is served before its sources are re-checked (default 2000). */
  freshMs?: number;
  /** Milliseconds after which a page is rendered again anyway (default 60000): pages show time-dependent
   * things (upcoming vs past events) that no platform answer changes with. */
  maxAgeMs?: number;
  /** Upper bound of the bytes held (default PAGE_CACHE_BYTES, 64 MiB). */
  maxBytes?: number;
  /** The current fingerprint of a platform answer (a GET of `path`, for the visitor who asked for the page). */
  fingerprintOf: (path: string, visitor?: string) => Promise<string>;
  /** The platform's change stream: while live, a page is re-checked only after a change of its scope. */
  follow?: Follow;
  /** Told each page held as fresh, each variant made and each page dropped, in order (the front's copy). */
  mirror?: (message: MirrorMessage) => void;
}

export const FRESH_MS = 2000;
/** The bytes held by default (the front's copy holds as many). */
export const PAGE_CACHE_BYTES = 64 * 1024 * 1024;

export class PageCache {
  /** Bounded by the bytes the pages hold (their bodies and variants): least recently used go first. */
  readonly #pages: LRUCache<string, CachedPage>;
  readonly #checks = new Map<string, Promise<CachedPage | undefined>>();
  readonly #freshMs: number;
  readonly #maxAgeMs: number;
  readonly #fingerprintOf: (path: string, visitor?: string) => Promise<string>;
  readonly #follow: Follow | undefined;
  readonly #mirror: ((message: MirrorMessage) => void) | undefined;
  hits = 0;
  misses = 0;
  revalidations = 0;

  constructor(options: PageCacheOptions) {
    this.#freshMs = options.freshMs ?? FRESH_MS;
    this.#maxAgeMs = options.maxAgeMs ?? 60_000;
    const maxBytes = options.maxBytes ?? PAGE_CACHE_BYTES;
    // An empty page still counts (lru-cache refuses a size of 0).
    this.#pages = new LRUCache({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 4,
      sizeCalculation: (page) => Math.max(1, page.size),
    });
    this.#fingerprintOf = options.fingerprintOf;
    this.#follow = options.follow;
    this.#mirror = options.mirror;
  }

  /** Sends the front a page this cache now serves as it is (stored, re-checked, or asked for). */
  #publish(page: CachedPage): void {
    if (!this.#mirror) return;
    const variants: MirroredPage['variants'] = {};
    for (const [encoding, v] of Object.entries(page.variants)) {
      if (v && !(v instanceof Promise)) variants[encoding as Encoding] = v;
    }
    const { status, headers, headers304, body, etag, scope, mark, freshUntil, expires, compressible } = page;
    this.#mirror({
      type: 'put',
      key: page.key,
      page: { status, headers, headers304, body, etag, scope, mark, freshUntil, expires, compressible, variants },
    });
  }

  /** Where a page's reads begin: pass it to `set`, so a change that came meanwhile leaves the page born stale. */
  mark(): number {
    return this.#follow?.freshness.mark() ?? 0;
  }

  #fresh(page: CachedPage, now: number): boolean {
    const follow = this.#follow;
    return follow?.live ? follow.freshness.fresh(page.scope, page.mark) : page.freshUntil > now;
  }

  get size(): number {
    return this.#pages.size;
  }

  get bytes(): number {
    return this.#pages.calculatedSize;
  }

  /**
   * The page for `key` when it is fresh or its sources did not change; undefined → render it. `visitor`
   * (asked only for a re-check) is whose address the re-check's platform reads are made for.
   */
  lookup(key: string, visitor?: () => string | undefined): CachedPage | undefined | Promise<CachedPage | undefined> {
    const page = this.#pages.get(key);
    if (!page) {
      this.misses++;
      return undefined;
    }
    const now = Date.now();
    if (page.expires <= now) {
      this.delete(key);
      this.misses++;
      return undefined;
    }
    if (this.#fresh(page, now)) {
      this.hits++;
      // Asked here, so the front lacks it (it left the front's memory, or came before the front did).
      this.#publish(page);
      return page;
    }
    let check = this.#checks.get(key);
    if (!check) {
      check = this.#revalidate(key, page, visitor?.()).finally(() => this.#checks.delete(key));
      this.#checks.set(key, check);
    }
    return check;
  }

  async #revalidate(key: string, page: CachedPage, visitor: string | undefined): Promise<CachedPage | undefined> {
    this.revalidations++;
    const mark = this.mark();
    let same: boolean;
    try {
      const now = await Promise.all(page.deps.map((d) => this.#fingerprintOf(d.path, visitor)));
      same = now.every((hash, i) => hash === page.deps[i].hash);
    } catch {
      same = false;
    }
    if (!same) {
      if (this.#pages.peek(key) === page) this.delete(key);
      this.misses++;
      return undefined;
    }
    page.freshUntil = Date.now() + this.#freshMs;
    page.mark = mark;
    this.hits++;
    // Not if a change came while it was re-checked: it is stale again here, and must be there.
    if (this.#pages.peek(key) === page && this.#fresh(page, Date.now())) this.#publish(page);
    return page;
  }

  /**
   * The page as `encoding` sends it, compressed on the first call and kept with the page; undefined when
   * the page is not worth compressing (or compressing failed: the plain page then goes out).
   */
  variant(page: CachedPage, encoding: Encoding): Variant | Promise<Variant | undefined> | undefined {
    if (!page.compressible) return undefined;
    const known = page.variants[encoding];
    if (known !== undefined) return known;
    const making = compressText(encoding, page.body).then(
      (compressed) => {
        // (zlib's output is a view on its 64 KB chunk: kept, the bytes alone)
        const body = ownBytes(compressed);
        const headers = { ...page.headers, 'content-encoding': encoding, 'content-length': String(body.length) };
        const made: Variant = { body, headers };
        page.variants[encoding] = made;
        page.size += body.length;
        // Counted again with its new size, if still kept (set() of the same page would keep the old size).
        if (this.#pages.peek(page.key) === page) {
          this.#pages.delete(page.key);
          this.#pages.set(page.key, page);
          this.#mirror?.({ type: 'variant', key: page.key, etag: page.etag, encoding, variant: made });
        }
        return made;
      },
      () => {
        delete page.variants[encoding];
        return undefined;
      },
    );
    page.variants[encoding] = making;
    return making;
  }

  /** Stores a rendered page (its deps deduplicated by call) and answers it as stored (undefined: too big to keep). */
  set(
    key: string,
    page: Omit<
      CachedPage,
      'freshUntil' | 'expires' | 'headers304' | 'key' | 'compressible' | 'variants' | 'size' | 'scope' | 'mark'
    > &
      Partial<Pick<CachedPage, 'scope' | 'mark'>>,
  ): CachedPage | undefined {
    const seen = new Set<string>();
    const deps = page.deps.filter((d) => !seen.has(d.path) && seen.add(d.path));
    this.delete(key);
    const now = Date.now();
    const headers304: Record<string, string> = { etag: page.etag };
    for (const name of ['cache-control', 'vary']) {
      if (page.headers[name]) headers304[name] = page.headers[name];
    }
    const stored: CachedPage = {
      // Without a scope, any change makes the page stale; without a mark, any change since the start.
      scope: {},
      mark: 0,
      ...page,
      // (a small page is a view on Buffer's 64 KB pool: kept, the bytes alone)
      body: ownBytes(page.body),
      headers304,
      deps,
      freshUntil: now + this.#freshMs,
      expires: now + this.#maxAgeMs,
      key,
      compressible: worthCompressing(page.headers['content-type'], page.body.length),
      variants: {},
      size: page.body.length,
    };
    this.#pages.set(key, stored);
    // Too big to keep (a quarter of the budget): the cache refused it.
    if (this.#pages.peek(key) !== stored) return undefined;
    // Born stale (a change came while it was rendered): kept here for its re-check, not sent to the front.
    if (this.#fresh(stored, now)) this.#publish(stored);
    return stored;
  }

  delete(key: string): void {
    this.#pages.delete(key);
    this.#mirror?.({ type: 'drop', key });
  }

  clear(): void {
    this.#pages.clear();
    this.#mirror?.({ type: 'clear' });
  }
}
