// The page cache's copy in the front thread (front-worker.ts). The renderer's PageCache stays the one
// that decides: it sends here each page it holds as fresh (when stored, re-checked or served), each
// variant it made, each page it dropped, and each thing its change follower did (ChangeFollower.watch),
// all over one message port, in the order they happened. The copy judges freshness as the PageCache
// does — while the change stream is live, no change of the page's scope since the page's mark; otherwise,
// until the page's freshUntil — with a Freshness of its own fed the same changes in the same order, its
// marks the PageCache's less the count of changes before the copy began (`sync`). So
// it never serves a page the PageCache would not; it answers none that is stale or lacks the variant a
// request needs, and the front hands that request to the renderer, which re-checks, makes the variant,
// and sends the page again.

import { LRUCache } from 'lru-cache';
import type { FollowEvent } from '../client/follow.ts';
import { Freshness } from '../shared/freshness.ts';
import type { Encoding } from '../shared/encoding.ts';
// Types only: the front thread loads no more of the page cache than this file.
import type { CachedPage, Variant } from './pagecache.ts';

/** A page as one encoding sends it; its body arrives as a Uint8Array (a Buffer does not cross threads as one). */
export type MirroredVariant = Omit<Variant, 'body'> & { body: Uint8Array };

/** What the front needs of a cached page to answer it (200 in an encoding, or 304) and to judge it fresh. */
export type MirroredPage = Pick<
  CachedPage,
  'status' | 'headers' | 'headers304' | 'etag' | 'scope' | 'mark' | 'freshUntil' | 'expires' | 'compressible'
> & { body: Uint8Array; variants: Partial<Record<Encoding, MirroredVariant>> };

export type MirrorMessage =
  | { type: 'put'; key: string; page: MirroredPage }
  | { type: 'variant'; key: string; etag: string; encoding: Encoding; variant: MirroredVariant }
  | { type: 'drop'; key: string }
  | { type: 'clear' }
  | { type: 'follow'; event: FollowEvent }
  /** The PageCache's mark now: the copy's first message, before any change it is told. */
  | { type: 'sync'; mark: number };

interface FrontPage extends MirroredPage {
  size: number;
}

export class FrontPages {
  readonly #pages: LRUCache<string, FrontPage>;
  readonly #freshness = new Freshness();
  #live = false;
  /** The PageCache's mark when this copy's Freshness was at 0: a page marked before is never fresh here. */
  #offset = 0;

  constructor(maxBytes: number) {
    // The PageCache's bound: the copy holds at most what the renderer holds.
    // An empty page still counts (lru-cache refuses a size of 0).
    this.#pages = new LRUCache({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 4,
      sizeCalculation: (p) => Math.max(1, p.size),
    });
  }

  get size(): number {
    return this.#pages.size;
  }

  apply(message: MirrorMessage): void {
    switch (message.type) {
      case 'put': {
        const page = message.page;
        let size = page.body.byteLength;
        for (const v of Object.values(page.variants)) size += v.body.byteLength;
        this.#pages.set(message.key, { ...page, mark: page.mark - this.#offset, size });
        return;
      }
      case 'variant': {
        const page = this.#pages.peek(message.key);
        // Made for a page this copy no longer holds (or holds anew): the renderer sends it with the page.
        if (!page || page.etag !== message.etag) return;
        page.variants[message.encoding] = message.variant;
        page.size += message.variant.body.byteLength;
        // Counted again with its new size.
        this.#pages.delete(message.key);
        this.#pages.set(message.key, page);
        return;
      }
      case 'drop':
        this.#pages.delete(message.key);
        return;
      case 'clear':
        this.#pages.clear();
        return;
      case 'sync':
        this.#offset = message.mark - this.#freshness.mark();
        return;
      case 'follow': {
        const event = message.event;
        if ('change' in event) this.#freshness.apply(event.change);
        else if ('all' in event) this.#freshness.applyAll();
        else this.#live = event.live;
      }
    }
  }

  /** The page for `key` if the renderer's PageCache would serve it as it is now; undefined → ask the renderer. */
  lookup(key: string, now = Date.now()): FrontPage | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    const fresh = this.#live ? this.#freshness.fresh(page.scope, page.mark) : page.freshUntil > now;
    if (fresh && page.expires > now) return page;
    // The renderer re-checks it (or renders it anew) and sends what it then holds.
    this.#pages.delete(key);
    return undefined;
  }
}
