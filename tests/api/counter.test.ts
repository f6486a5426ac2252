import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createCounter, memoryCounter, redisCounter, type Counter } from '../../src/platform/limits/counter.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
// One prefix per run so parallel or leftover runs never see each other's keys; removed in afterAll.
const PREFIX = `podium:test:rl:${randomUUID()}:`;

// Every counter a test opens, closed at the end even when an assertion fails midway.
const opened: Counter[] = [];
function track<C extends Counter>(c: C): C {
  opened.push(c);
  return c;
}

afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  const admin = new Redis(REDIS_URL);
  try {
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `${PREFIX}*`, count: 500 })) keys.push(...(batch as string[]));
    if (keys.length > 0) await admin.del(...keys);
  } finally {
    await admin.quit();
  }
});

type Impl = {
  name: string;
  make(): Counter;
  /** Lets `ms` pass for the counter: moves the injected clock, or really waits for Redis. */
  advance(ms: number): Promise<void>;
};

// The memory counter runs on an injected clock, so its window tests are exact and instant.
let fakeNow = 1_000_000;
const memory: Impl = {
  name: 'memory',
  make: () => track(memoryCounter(() => fakeNow)),
  advance: (ms) => {
    fakeNow += ms;
    return Promise.resolve();
  },
};
const redis: Impl = {
  name: 'redis',
  make: () => track(redisCounter(REDIS_URL, PREFIX)),
  advance: (ms) => sleep(ms),
};

// Long enough that a test never crosses it by accident, short enough not to matter if left behind.
const LONG = 60_000;
// Short enough to wait out for real against Redis.
const SHORT = 200;

describe.each([memory, redis])('$name counter', (impl) => {
  it('counts up within a window', async () => {
    const c = impl.make();
    const key = randomUUID();
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) counts.push((await c.hit(key, LONG)).count);
    expect(counts).toEqual([1, 2, 3, 4, 5]);
  });

  it('starts again from 1 once the window has passed', async () => {
    const c = impl.make();
    const key = randomUUID();
    await c.hit(key, SHORT);
    expect((await c.hit(key, SHORT)).count).toBe(2);
    await impl.advance(SHORT + 50);
    expect(await c.peek(key)).toEqual({ count: 0, resetMs: 0 });
    const after = await c.hit(key, SHORT);
    expect(after.count).toBe(1);
    // A new window, so the full length lies ahead again.
    expect(after.resetMs).toBeGreaterThan(SHORT / 2);
  });

  it('does not extend the window on later hits (fixed, not sliding)', async () => {
    const c = impl.make();
    const key = randomUUID();
    // A window of its own: against Redis the waits are real, and a busy machine oversleeps. The second
    // hit has 700 ms to land inside the first window; the third comes 30 ms past that window's end,
    // where a sliding window (from the second hit, until 1,300) would still count it.
    const window = 1000;
    await c.hit(key, window);
    await impl.advance(300);
    expect((await c.hit(key, window)).count).toBe(2);
    await impl.advance(window - 300 + 30);
    expect((await c.hit(key, window)).count).toBe(1);
  });

  it('keeps keys independent', async () => {
    const c = impl.make();
    const a = randomUUID();
    const b = randomUUID();
    await c.hit(a, LONG);
    await c.hit(a, LONG);
    await c.hit(a, LONG);
    expect((await c.hit(b, LONG)).count).toBe(1);
    expect((await c.peek(a)).count).toBe(3);
    expect((await c.peek(b)).count).toBe(1);
    expect((await c.peek(randomUUID())).count).toBe(0);
  });

  it('peek reports without adding', async () => {
    const c = impl.make();
    const key = randomUUID();
    expect(await c.peek(key)).toEqual({ count: 0, resetMs: 0 });
    await c.hit(key, LONG);
    await c.hit(key, LONG);
    const p1 = await c.peek(key);
    const p2 = await c.peek(key);
    expect(p1.count).toBe(2);
    expect(p2.count).toBe(2);
    expect(p1.resetMs).toBeGreaterThan(0);
    expect(p1.resetMs).toBeLessThanOrEqual(LONG);
    expect((await c.hit(key, LONG)).count).toBe(3);
  });

  it('reports resetMs within (0, windowMs] and counting down', async () => {
    const c = impl.make();
    const key = randomUUID();
    const first = await c.hit(key, SHORT);
    expect(first.resetMs).toBeGreaterThan(0);
    expect(first.resetMs).toBeLessThanOrEqual(SHORT);
    await impl.advance(80);
    const later = await c.hit(key, SHORT);
    expect(later.resetMs).toBeGreaterThan(0);
    expect(later.resetMs).toBeLessThanOrEqual(SHORT - 80);
    const big = await c.hit(randomUUID(), 3_600_000);
    expect(big.resetMs).toBeGreaterThan(3_600_000 - 1_000);
    expect(big.resetMs).toBeLessThanOrEqual(3_600_000);
  });

  it('counts concurrent hits exactly once each', async () => {
    const c = impl.make();
    const key = randomUUID();
    const hits = await Promise.all(Array.from({ length: 50 }, () => c.hit(key, LONG)));
    const counts = hits.map((h) => h.count).sort((x, y) => x - y);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});

describe('memory counter', () => {
  it('sweeps expired windows and keeps live ones', async () => {
    let t = 0;
    const c = track(memoryCounter(() => t));
    for (let i = 0; i < 100; i++) await c.hit(`short-${i}`, 100);
    await c.hit('long', LONG);
    await c.hit('long', LONG);
    expect(c.size).toBe(101);
    // Past the short windows and past the sweep interval: the next hit sweeps.
    t += 1_500;
    await c.hit('other', 100);
    expect(c.size).toBe(2);
    expect((await c.hit('long', LONG)).count).toBe(3);
  });

  it('does not scan on every call (sweeps at most once a second)', async () => {
    let t = 0;
    const c = track(memoryCounter(() => t));
    await c.hit('a', 10);
    t = 1_000; // first sweep happens here: 'a' expired
    await c.hit('b', 10);
    expect(c.size).toBe(1);
    t = 1_500; // 'b' expired, but the next sweep is not due yet
    await c.hit('c', 10);
    expect(c.size).toBe(2);
    expect((await c.peek('b')).count).toBe(0);
  });
});

describe('redis counter', () => {
  it('shares one count between two instances (two connections)', async () => {
    const one = redis.make();
    const two = redis.make();
    const key = randomUUID();
    expect((await one.hit(key, LONG)).count).toBe(1);
    expect((await two.hit(key, LONG)).count).toBe(2);
    expect((await one.hit(key, LONG)).count).toBe(3);
    expect((await two.peek(key)).count).toBe(3);
    // Interleaved concurrent hits from both processes still add up with no lost increments.
    const both = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).hit(key, LONG)));
    expect(both.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 4));
  });

  it('stores keys under the prefix with an expiry of the window', async () => {
    const c = redis.make();
    const key = randomUUID();
    await c.hit(key, LONG);
    await c.hit(key, LONG);
    const raw = new Redis(REDIS_URL);
    try {
      expect(await raw.get(PREFIX + key)).toBe('2');
      const ttl = await raw.pttl(PREFIX + key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(LONG);
      expect(await raw.exists(key)).toBe(0);
      // Another prefix is another namespace.
      const other = track(redisCounter(REDIS_URL, `${PREFIX}other:`));
      expect((await other.hit(key, LONG)).count).toBe(1);
      expect((await c.peek(key)).count).toBe(2);
    } finally {
      await raw.quit();
    }
  });

  it('repairs a key that has no expiry instead of counting forever', async () => {
    const c = redis.make();
    const key = randomUUID();
    const raw = new Redis(REDIS_URL);
    try {
      await raw.set(PREFIX + key, '7');
      const h = await c.hit(key, SHORT);
      expect(h.count).toBe(8);
      expect(h.resetMs).toBeLessThanOrEqual(SHORT);
      expect(await raw.pttl(PREFIX + key)).toBeGreaterThan(0);
    } finally {
      await raw.quit();
    }
  });

  it('rejects when Redis returns an error', async () => {
    const c = redis.make();
    const key = randomUUID();
    const raw = new Redis(REDIS_URL);
    try {
      await raw.set(PREFIX + key, 'not a number', 'PX', LONG);
      await expect(c.hit(key, LONG)).rejects.toThrow(/not an integer/);
    } finally {
      await raw.quit();
    }
  });

  it('close can be called twice', async () => {
    const c = redisCounter(REDIS_URL, PREFIX);
    await c.hit(randomUUID(), SHORT);
    await c.close();
    await c.close();
  });
});

describe('createCounter', () => {
  it('uses Redis when given a URL and memory otherwise', async () => {
    const key = randomUUID();
    const viaUrl = track(createCounter(REDIS_URL));
    // The default prefix: seen by a counter built with that prefix explicitly, and cleaned up here.
    await viaUrl.hit(key, SHORT);
    const explicit = track(redisCounter(REDIS_URL, 'podium:rl:'));
    expect((await explicit.peek(key)).count).toBe(1);
    const raw = new Redis(REDIS_URL);
    await raw.del(`podium:rl:${key}`);
    await raw.quit();

    const inMemory = track(createCounter());
    const other = track(createCounter(undefined));
    await inMemory.hit(key, LONG);
    // Memory counters are per instance: nothing shared through Redis.
    expect((await other.peek(key)).count).toBe(0);
    expect((await inMemory.peek(key)).count).toBe(1);
  });
});
