import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors.ts';

/** count: the count after this hit within the current window; resetMs: ms until the window ends (>= 1). */
export interface Hit {
  count: number;
  resetMs: number;
}

/**
 * Fixed-window counters behind the API rate limits and the throttling of wrong access codes and
 * passwords. A window opens with the first hit on a key and lasts `windowMs`; the count then starts
 * again from zero. Keys are opaque: callers hash secrets (tokens) before using them as keys.
 */
export interface Counter {
  /** Adds one to `key` in a window of `windowMs` and returns the new count. */
  hit(key: string, windowMs: number): Promise<Hit>;
  /**
   * `hit` answered at once, for counters that keep their counts in this process: the dispatcher
   * counts every call, and a promise per count would be the costliest part of the count.
   */
  hitNow?(key: string, windowMs: number): Hit;
  /** Current count of `key` without adding (0 when none), and ms until reset (0 when none). */
  peek(key: string): Promise<Hit>;
  close(): Promise<void>;
}

/** The in-process counter also reports how many keys it holds, so tests can see that sweeping works. */
export interface MemoryCounter extends Counter {
  readonly size: number;
  hitNow(key: string, windowMs: number): Hit;
}

type Window = { count: number; resetAt: number };

// Expired windows are dropped at most this often. A full scan per call would make every request
// pay O(keys); once a second keeps memory bounded to the keys active within the longest window.
const SWEEP_EVERY_MS = 1000;

/** Counts in a Map within this process: for a single server, or when no Redis is configured. */
export function memoryCounter(now: () => number = Date.now): MemoryCounter {
  const windows = new Map<string, Window>();
  let nextSweep = now() + SWEEP_EVERY_MS;

  function sweep(t: number): void {
    // Deleting the current entry while iterating a Map is safe and visits every other entry.
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  }

  function hitNow(key: string, windowMs: number): Hit {
    const t = now();
    if (t >= nextSweep) {
      nextSweep = t + SWEEP_EVERY_MS;
      sweep(t);
    }
    const w = windows.get(key);
    // Common case: one lookup and an in-place increment.
    if (w !== undefined && w.resetAt > t) {
      w.count += 1;
      return { count: w.count, resetMs: w.resetAt - t };
    }
    const ms = Math.max(1, Math.ceil(windowMs));
    windows.set(key, { count: 1, resetAt: t + ms });
    return { count: 1, resetMs: ms };
  }

  return {
    get size() {
      return windows.size;
    },

    hitNow,

    hit(key, windowMs) {
      return Promise.resolve(hitNow(key, windowMs));
    },

    peek(key) {
      const t = now();
      const w = windows.get(key);
      // An expired window that the sweep has not reached yet counts as none.
      if (w === undefined || w.resetAt <= t) return Promise.resolve({ count: 0, resetMs: 0 });
      return Promise.resolve({ count: w.count, resetMs: w.resetAt - t });
    },

    close() {
      windows.clear();
      return Promise.resolve();
    },
  };
}

// Atomic in Redis, so concurrent hits from several processes never lose an increment or leave a key
// without an expiry. The `pttl < 0` branch repairs a key that somehow exists without a TTL (e.g. set
// by hand), which would otherwise never reset and lock the caller out for good.
const HIT_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local pttl = redis.call('PTTL', KEYS[1])
if pttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  pttl = tonumber(ARGV[1])
end
return {count, pttl}
`;

// GET and PTTL in one script: one round trip, and both read at the same instant.
const PEEK_LUA = `
local count = redis.call('GET', KEYS[1])
if not count then
  return {0, 0}
end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

// Commands added by defineCommand; ioredis sends EVAL on a connection's first use and EVALSHA after,
// so each call is a single round trip and survives a SCRIPT FLUSH or a server restart.
type ScriptedRedis = Redis & {
  podiumHit(key: string, windowMs: number): Promise<unknown>;
  podiumPeek(key: string): Promise<unknown>;
};

function toPair(reply: unknown): [number, number] {
  if (Array.isArray(reply) && reply.length === 2) {
    const [a, b]: unknown[] = reply;
    if (typeof a === 'number' && typeof b === 'number') return [a, b];
  }
  throw new Error(`Unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
}

/**
 * How long a count waits for Redis: a hit while a connection is being made waits (ioredis' offline
 * queue) and answers as soon as Redis is back, but never longer than this — with Redis gone, ioredis'
 * own retry limit made every call wait 20 s to over a minute. Between attempts, a count fails at once.
 */
export const REDIS_COUNT_TIMEOUT_MS = 1_000;

/** A count Redis could not make: one plain line (`503`), each caller deciding to fail open or closed. */
export class CounterUnavailable extends ApiError {
  constructor() {
    super(503, 'the rate-limit store is unavailable, try again shortly', { 'Retry-After': '5' });
  }
}

/** Counts in Redis so every server process behind the same Redis shares one count per key. */
export function redisCounter(url: string, prefix = 'podium:rl:'): Counter {
  // ioredis is loaded only where a Redis is configured (docs/api/reports.md "Memory").
  const { Redis: RedisClient, ReplyError } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(url, {
    lazyConnect: false,
    commandTimeout: REDIS_COUNT_TIMEOUT_MS,
  }) as ScriptedRedis;
  // Without a listener ioredis prints every connection error itself; the failures still reach the
  // caller as rejected hit/peek promises (CounterUnavailable), and the caller decides whether to fail
  // open or closed.
  redis.on('error', () => {});
  // (An error Redis answered — a key not holding a count — is no outage: it stays what it is.)
  const unavailable = (err?: unknown) => {
    throw err instanceof ReplyError ? err : new CounterUnavailable();
  };
  // Between reconnection attempts (Redis gone, not a connection being made) a count fails at once.
  const down = () => redis.status === 'reconnecting' || redis.status === 'end';
  redis.defineCommand('podiumHit', { lua: HIT_LUA, numberOfKeys: 1 });
  redis.defineCommand('podiumPeek', { lua: PEEK_LUA, numberOfKeys: 1, readOnly: true });
  let closing: Promise<void> | undefined;

  return {
    async hit(key, windowMs) {
      const ms = Math.max(1, Math.ceil(windowMs));
      if (down()) unavailable();
      const [count, pttl] = toPair(await redis.podiumHit(prefix + key, ms).catch(unavailable));
      // PTTL can read 0 in the last millisecond of a window; the contract promises >= 1.
      return { count, resetMs: Math.max(1, pttl) };
    },

    async peek(key) {
      if (down()) unavailable();
      const [count, pttl] = toPair(await redis.podiumPeek(prefix + key).catch(unavailable));
      if (count === 0) return { count: 0, resetMs: 0 };
      // PTTL is -1 only for a key written without expiry by something else; it has no reset (the
      // next hit repairs it). Otherwise clamp the last millisecond to 1 like hit does.
      return { count, resetMs: pttl < 0 ? 0 : Math.max(1, pttl) };
    },

    close() {
      closing ??= redis.quit().then(
        () => undefined,
        // QUIT fails when the connection is already down; drop it so no reconnect timer keeps the process alive.
        () => redis.disconnect(),
      );
      return closing;
    },
  };
}

/**
 * Builds the store the config asks for: Redis when a URL is given, memory otherwise. `now` is the
 * clock of the in-memory windows (tests simulate hours with it); Redis keeps time itself.
 */
export function createCounter(redisUrl?: string, now: () => number = Date.now): Counter {
  return redisUrl ? redisCounter(redisUrl) : memoryCounter(now);
}
