// Redis gone (docs/deploy.md: "without it the per-call limits fail open (logged)"): an operator found
// every call waiting 20 s to over a minute (ioredis' retry limit) with a stack in the log per call. A
// platform whose Redis goes away answers at once: calls not limited, one plain log line; a count a
// call itself needs (a wrong password's throttle) is refused as one `503` line. Redis is reached
// through a TCP proxy on loopback, which the test closes.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CounterUnavailable, redisCounter } from '../../src/platform/limits/counter.ts';
import { PASSWORD, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

/** A TCP proxy to Redis; close() cuts every connection and stops listening. */
async function redisProxy(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(6379, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const timed = async <T>(f: () => Promise<T>) => {
  const t = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t };
};

describe('Redis gone', () => {
  let proxy: Awaited<ReturnType<typeof redisProxy>>;
  let p: TestPlatform;

  beforeAll(async () => {
    proxy = await redisProxy();
    p = await startTestPlatform('sqlite', { REDIS_URL: `redis://127.0.0.1:${proxy.port}/7` });
  });
  afterAll(async () => {
    await p?.close();
    await proxy?.close();
  });

  it('a counter answers CounterUnavailable within its timeout, not after ioredis retries', async () => {
    const c = redisCounter('redis://127.0.0.1:1/7');
    try {
      const t = performance.now();
      await expect(c.hit('k', 1000)).rejects.toBeInstanceOf(CounterUnavailable);
      expect(performance.now() - t).toBeLessThan(2_000);
    } finally {
      await c.close();
    }
  });

  it('calls answer at once, not limited, with one plain log line; a throttle it needs is one 503 line', async () => {
    expect((await p.call('api.ping')).status).toBe(200);
    const username = `redis-down-${Date.now()}@podium.test`;
    await p.person(username, PASSWORD);
    await proxy.close();
    const before = p.logs.length;
    const times = [];
    for (let i = 0; i < 5; i++) {
      const { value, ms } = await timed(() => p.call('api.ping'));
      expect(value.status).toBe(200);
      times.push(ms);
    }
    // The first may wait for the connection being made (at most the count's timeout); then at once.
    expect(times[0]).toBeLessThan(2_000);
    expect(Math.max(...times.slice(1))).toBeLessThan(400);
    const wrong = await timed(() =>
      p.call('person.signIn', { method: 'POST', query: { username }, body: { password: 'not it' } }),
    );
    expect(wrong.ms).toBeLessThan(2_000);
    expect(wrong.value.text).toBe('503 the rate-limit store is unavailable, try again shortly');
    const said = p.logs.slice(before).filter((l) => l.includes('rate limit store unavailable'));
    expect(said).toHaveLength(1);
    expect(said[0]).not.toMatch(/\bat \S+ \(|stack/);
  });
});
