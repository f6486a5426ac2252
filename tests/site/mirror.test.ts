// The front thread's copy of the page cache (src/site/mirror.ts). The copy must never serve a page the renderer's PageCache would not: random runs
// of stores, changes, resets, stream drops, re-checks and time check that whenever the copy answers,
// the PageCache answers the same page at once (no re-check). The copy must also serve what it was sent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FollowEvent } from '../../src/client/index.ts';
import { Freshness, type ChangeScope } from '../../src/shared/freshness.ts';
import { FrontPages, type MirrorMessage } from '../../src/site/mirror.ts';
import { PageCache } from '../../src/site/pagecache.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A PageCache with a front copy fed as server.ts feeds it, and a follower's events told to both. */
function pair(freshMs = 50) {
  const follow = { freshness: new Freshness(), live: false };
  // The copy starts after the follower heard some changes (a front started again): its marks are offset.
  for (const eventID of [70, 80, 90]) follow.freshness.apply({ companyID: eventID / 10, eventID });
  const front = new FrontPages(1 << 20);
  front.apply({ type: 'sync', mark: follow.freshness.mark() });
  const sent: MirrorMessage[] = [];
  const prints: Record<string, string> = { '/a': 'h1' };
  const cache = new PageCache({
    freshMs,
    maxAgeMs: 400,
    fingerprintOf: async (path) => prints[path],
    follow,
    mirror: (m) => {
      sent.push(m);
      front.apply(m);
    },
  });
  const tell = (event: FollowEvent) => front.apply({ type: 'follow', event });
  return {
    follow,
    front,
    cache,
    sent,
    prints,
    change(scope: ChangeScope) {
      follow.freshness.apply(scope);
      tell({ change: scope });
    },
    reset() {
      follow.freshness.applyAll();
      tell({ all: true });
    },
    live(live: boolean) {
      follow.live = live;
      tell({ live });
    },
  };
}

const page = (body: string, companyID?: number, mark = 0) => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public', etag: `"${body}"` },
  body: Buffer.from(body.repeat(400)),
  etag: `"${body}"`,
  deps: [{ path: '/a', hash: 'h1' }],
  scope: companyID === undefined ? {} : { companyID },
  mark,
});

describe("the front's copy of the page cache", () => {
  it('serves what the cache stored, with the variants it made, and forgets what it dropped', async () => {
    const p = pair();
    p.live(true);
    p.cache.set('k', page('one', 7, p.cache.mark()));
    expect(Buffer.from(p.front.lookup('k')!.body).toString()).toBe('one'.repeat(400));
    expect(p.front.lookup('k')!.variants.br).toBeUndefined();
    const made = await p.cache.variant(p.cache.lookup('k') as never, 'br');
    expect(Buffer.from(p.front.lookup('k')!.variants.br!.body).equals(made!.body)).toBe(true);
    p.cache.delete('k');
    expect(p.front.lookup('k')).toBeUndefined();
    p.cache.set('k', page('two', 7, p.cache.mark()));
    p.cache.clear();
    expect(p.front.lookup('k')).toBeUndefined();
    // An empty page (a 200 with no body) is kept and sent like any other.
    p.cache.set('empty', page('', 7, p.cache.mark()));
    expect(p.front.lookup('empty')?.body.byteLength).toBe(0);
  });

  it("a page born stale is not sent; a change of its company makes it stale there too, another company's does not", () => {
    const p = pair();
    p.live(true);
    const mark = p.cache.mark();
    p.change({ companyID: 7, eventID: 70 }); // while it rendered
    p.cache.set('born', page('born', 7, mark));
    expect(p.front.lookup('born')).toBeUndefined();
    p.cache.set('k', page('k', 7, p.cache.mark()));
    p.change({ companyID: 8, eventID: 80 });
    expect(p.front.lookup('k')).toBeDefined();
    p.change({ companyID: 7, eventID: null });
    expect(p.front.lookup('k')).toBeUndefined();
  });

  it('a page re-checked while a change came is not sent as fresh', async () => {
    const p = pair(10);
    p.cache.set('k', page('k', 7));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 20);
    expect(p.front.lookup('k')).toBeUndefined(); // stale by time: the renderer re-checks
    const check = p.cache.lookup('k');
    expect(check).toBeInstanceOf(Promise);
    p.live(true);
    p.change({ companyID: 7, eventID: 70 }); // during the re-check
    await check;
    expect(p.front.lookup('k')).toBeUndefined();
  });

  // Random runs: whatever the copy answers, the cache answers at once with the same page.
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`never serves what the cache would not (random run ${seed})`, async () => {
      let state = seed;
      const rand = (n: number) => ((state = (state * 1103515245 + 12345) % 2 ** 31), state % n);
      vi.useFakeTimers({ toFake: ['Date'] });
      let now = 1_000_000;
      vi.setSystemTime(now);
      const p = pair();
      const keys = ['a', 'b', 'c', 'd'];
      let served = 0;
      for (let step = 0; step < 400; step++) {
        const op = rand(9);
        const key = keys[rand(keys.length)];
        const company = [7, 8, undefined][rand(3)];
        if (op === 0) p.cache.set(key, page(`${key}${step}`, company, p.cache.mark()));
        else if (op === 1) {
          // Its render began before a change, or before the copy began.
          const mark = rand(4) ? p.cache.mark() : 0;
          p.change({ companyID: company ?? 9, eventID: rand(2) ? 70 : null });
          p.cache.set(key, page(`${key}${step}`, company, mark));
        } else if (op === 2) p.change({ companyID: company ?? 9, eventID: rand(2) ? 70 : null });
        else if (op === 3 && rand(4) === 0) p.reset();
        else if (op === 4) p.live(rand(2) === 0);
        else if (op === 5) vi.setSystemTime((now += rand(80)));
        else if (op === 6) p.prints['/a'] = rand(3) ? 'h1' : 'h2';
        // A request: the copy answers it, or the renderer's cache does (re-checking as it must).
        const fromFront = p.front.lookup(key);
        const fromCache = p.cache.lookup(key);
        if (fromFront) {
          served++;
          expect(fromCache).not.toBeInstanceOf(Promise);
          expect((fromCache as { etag: string } | undefined)?.etag).toBe(fromFront.etag);
        } else if (fromCache instanceof Promise) await fromCache;
      }
      // The copy did its work, not only refused.
      expect(served).toBeGreaterThan(40);
    });
  }
});
