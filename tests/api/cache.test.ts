// Caching that stays true and compression (issue 11, items 4 and 5): public answers carry an ETag and
// answer If-None-Match with 304, may be held by shared caches for a few seconds, go out br or gzip as
// the client takes them; a write to one event leaves other events' cached answers alone, and a read
// that began before a commit never stores its answer past it. Both stores; the cache's own rules as a
// unit too.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { AnswerCache } from '../../src/platform/kernel/cache.ts';
import { notModified, preferredEncoding, takes } from '../../src/platform/kernel/encoding.ts';

describe('content negotiation', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR', 'br'],
    ['identity', undefined],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0', undefined],
    [`${'x,'.repeat(5000)}br`, undefined], // only the first 256 characters are read
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abcd"', false],
  ])('If-None-Match %j names "abc": %s', (header, expected) => {
    expect(notModified(header, '"abc"')).toBe(expected);
  });

  // What the site's page cache (both threads) and the API's answer cache send for a stored answer.
  it.each([
    ['"abc"', 'br', true, 304],
    ['W/"abc"', 'gzip', true, 304],
    ['"x", "abc"', undefined, false, 304],
    ['"old"', 'gzip, br', true, 'br'],
    ['"old"', 'gzip', true, 'gzip'],
    [undefined, 'br', true, 'br'],
    [undefined, 'br', false, undefined], // too small or not text: as it is
    [undefined, undefined, true, undefined],
    ['', 'br', true, 'br'],
  ])('If-None-Match %j, Accept-Encoding %j, compressible %s → %s', (inm, accept, compressible, expected) => {
    expect(takes('"abc"', compressible, inm, accept)).toBe(expected);
  });
});

describe('the answer cache', () => {
  const body = Buffer.from('{"count":"0","data":[]}');

  it('keeps an answer until a change of its event, and only of its event', () => {
    const cache = new AnswerCache(10, 60_000);
    cache.set('a', body, { eventID: 1 }, cache.mark());
    cache.set('b', body, { eventID: 2 }, cache.mark());
    cache.apply({ eventID: 2, companyID: 9 });
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('never keeps the answer of a read that began before a change it did not see', () => {
    const cache = new AnswerCache(10, 60_000);
    const mark = cache.mark(); // the read begins…
    cache.apply({ eventID: 1, companyID: 9 }); // …a write commits meanwhile…
    const answer = cache.set('a', body, { eventID: 1 }, mark); // …and the read ends with what it saw
    expect(answer.etag).toMatch(/^"[\w-]+"$/);
    expect(cache.get('a')).toBeUndefined();
  });

  it("a company's own change reaches its events' and its company answers; a person's own reaches none", () => {
    const cache = new AnswerCache(10, 60_000);
    cache.set('event', body, { eventID: 1 }, cache.mark());
    cache.set('company', body, { companyID: 9 }, cache.mark());
    cache.set('other company', body, { companyID: 8 }, cache.mark());
    cache.apply({ eventID: null, companyID: null });
    expect(cache.get('event')).toBeDefined();
    cache.apply({ eventID: null, companyID: 9 });
    expect(cache.get('event')).toBeUndefined();
    expect(cache.get('company')).toBeUndefined();
    expect(cache.get('other company')).toBeDefined();
  });

  it('forgets answers after their time, and the oldest first when full', async () => {
    const short = new AnswerCache(10, 1);
    short.set('a', body, {}, short.mark());
    await new Promise((r) => setTimeout(r, 5));
    expect(short.get('a')).toBeUndefined();
    const small = new AnswerCache(2, 60_000);
    for (const k of ['a', 'b', 'c']) small.set(k, body, {}, small.mark());
    expect([small.get('a'), small.get('b'), small.get('c')].map((x) => x !== undefined)).toEqual([false, true, true]);
  });

  it("keeps the bytes alone, not the 64 KB buffers a small answer and zlib's output are views on", async () => {
    const alone = (b: Uint8Array | undefined) => b !== undefined && b.byteLength === b.buffer.byteLength;
    const cache = new AnswerCache(10, 60_000);
    const json = Buffer.from(JSON.stringify({ count: '1', data: [{ name: 'x'.repeat(2000) }] }));
    expect(alone(json)).toBe(false);
    const answer = cache.set('k', json, {}, cache.mark());
    await expect.poll(() => answer.br !== undefined && answer.gzip !== undefined).toBe(true);
    expect([alone(answer.body), alone(answer.br), alone(answer.gzip)]).toEqual([true, true, true]);
    expect(brotliDecompressSync(answer.br!).equals(json)).toBe(true);
  });
});

describe.each(STORES)('cached public answers over HTTP on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${p.url}${path}`, { headers });

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    // A program long enough to be compressed (1 KB and more).
    for (const eventID of [w.eventA.eventID, w.eventB.eventID]) {
      const token = eventID === w.eventA.eventID ? w.adminA : w.adminB;
      for (let i = 0; i < 12; i++)
        await p.ok('activity.create', {
          token,
          query: { eventID },
          body: {
            name: `Session ${i} on caching`,
            dateBegin: String(1900000000 + i * 3600),
            dateEnd: String(1900001800 + i * 3600),
          },
        });
    }
  });
  afterAll(() => p?.close());

  const programOf = (eventID: string) => `/activity/find?eventID=${eventID}&limit=100`;

  it('a public answer has an ETag and may be kept by shared caches; the tag it holds answers 304', async () => {
    const first = await get(`/event/get?eventID=${w.eventA.eventID}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=5, stale-while-revalidate=30');
    const again = await get(`/event/get?eventID=${w.eventA.eventID}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Another tag, or none: the whole answer.
    expect((await get(`/event/get?eventID=${w.eventA.eventID}`, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('an answer that depends on a token is private and has no ETag', async () => {
    const r = await fetch(`${p.url}/event/get?eventID=${w.eventA.eventID}`, {
      headers: { authorization: `Bearer ${w.adminA}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('etag')).toBeNull();
  });

  it.each([
    ['br', (b: Buffer) => brotliDecompressSync(b)],
    ['gzip', (b: Buffer) => gunzipSync(b)],
  ])(
    'a long public answer goes out %s to a client that takes it, the same bytes once decoded',
    async (encoding, decode) => {
      const plain = Buffer.from(await (await get(programOf(w.eventA.eventID))).arrayBuffer());
      expect(plain.byteLength).toBeGreaterThan(1024);
      // The variants are made once, in the background: the answers after that carry them.
      let r: Response | undefined;
      for (let i = 0; i < 50 && r?.headers.get('content-encoding') !== encoding; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        r = await get(programOf(w.eventA.eventID), { 'accept-encoding': encoding });
      }
      expect(r!.headers.get('content-encoding')).toBe(encoding);
      expect(r!.headers.get('vary')).toBe('Accept-Encoding');
      // fetch would decode it: read the raw bytes through node:http instead.
      const raw = await rawGet(`${p.url}${programOf(w.eventA.eventID)}`, encoding);
      expect(raw.encoding).toBe(encoding);
      expect(raw.body.byteLength).toBeLessThan(plain.byteLength / 3);
      expect(decode(raw.body).equals(plain)).toBe(true);
    },
  );

  it("a member's long answer is compressed too, made for them", async () => {
    const raw = await rawGet(`${p.url}${programOf(w.eventA.eventID)}`, 'br', w.adminA);
    expect(raw.encoding).toBe('br');
    const decoded = JSON.parse(brotliDecompressSync(raw.body).toString()) as { count: string };
    expect(Number(decoded.count)).toBe(12);
  });

  it("a write to one event leaves another event's cached answers alone, and renews its own", async () => {
    const a = programOf(w.eventA.eventID);
    const b = programOf(w.eventB.eventID);
    const names = async (path: string) =>
      ((await (await get(path)).json()) as { data: { name: string }[] }).data.map((r) => r.name);
    await names(a);
    await names(b);
    // A writer that logs no change (hand-written SQL): the cached answers do not see it…
    await p.db.updateTable('activity').set({ name: 'Renamed quietly' }).execute();
    expect(await names(a)).not.toContain('Renamed quietly');
    expect(await names(b)).not.toContain('Renamed quietly');
    // …a write through the API to event B renews B's answers only…
    await p.ok('event.edit', {
      token: w.adminB,
      query: { eventID: w.eventB.eventID, key: 'description' },
      body: { value: 'New text' },
    });
    expect(await names(b)).toContain('Renamed quietly');
    expect(await names(a)).not.toContain('Renamed quietly');
    // …and one to event A renews A's.
    await p.ok('event.edit', {
      token: w.adminA,
      query: { eventID: w.eventA.eventID, key: 'description' },
      body: { value: 'New text' },
    });
    expect(await names(a)).toContain('Renamed quietly');
  });

  // error.create is public: otherwise anyone could empty an event's cached answers at its rate limit.
  it('a write no public read shows (an error report of the event) leaves its cached answers alone', async () => {
    const a = programOf(w.eventA.eventID);
    const names = async () => ((await (await get(a)).json()) as { data: { name: string }[] }).data.map((r) => r.name);
    await names();
    await p.db.updateTable('activity').set({ name: 'Renamed in private' }).execute();
    await p.ok('error.create', {
      query: { eventID: w.eventA.eventID },
      body: { platform: 'web', message: 'a crash' },
    });
    expect(await names()).not.toContain('Renamed in private');
    await p.ok('event.edit', {
      token: w.adminA,
      query: { eventID: w.eventA.eventID, key: 'description' },
      body: { value: 'Newer text' },
    });
    expect(await names()).toContain('Renamed in private');
  });

  it('a request with Cache-Control: no-cache is answered from the store, and renews the cached answer', async () => {
    const path = `/event/get?eventID=${w.eventA.eventID}`;
    const name = async (headers: Record<string, string> = {}) =>
      ((await (await get(path, headers)).json()) as { data: { name: string }[] }).data[0].name;
    await name(); // cached
    await p.db
      .updateTable('event')
      .set({ name: 'Quiet name' })
      .where('eventID', '=', Number(w.eventA.eventID))
      .execute();
    expect(await name()).not.toBe('Quiet name');
    expect(await name({ 'cache-control': 'no-cache' })).toBe('Quiet name');
    expect(await name()).toBe('Quiet name');
  });
});

/** A GET through node:http, which leaves the body as sent (fetch would decode it). */
async function rawGet(url: string, encoding: string, token?: string) {
  const { request } = await import('node:http');
  return new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    const headers: Record<string, string> = { 'accept-encoding': encoding };
    if (token) headers.authorization = `Bearer ${token}`;
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('writes no public read shows', () => {
  it('name writes of the operation table, and no module or operation a public read shows', async () => {
    const { operations } = await import('../../src/platform/catalog/index.ts');
    const { PRIVATE_WRITES, kindOf } = await import('../../src/platform/resources/change/log.ts');
    const writes = new Set(operations.filter((o) => o.writes !== false).flatMap((o) => [o.name, kindOf(o.name)]));
    for (const name of PRIVATE_WRITES) expect(writes, name).toContain(name);
    const publicReads = operations.filter((o) => o.writes === false && o.auth.kind === 'public');
    for (const o of publicReads) expect(PRIVATE_WRITES, o.name).not.toContain(kindOf(o.name));
  });
});

describe('one computation for concurrent identical reads', () => {
  it('callers that miss the same cold key wait for the first and take what it kept; after a change, anew', async () => {
    const { createDispatcher } = await import('../../src/platform/kernel/dispatch.ts');
    const { loadConfig } = await import('../../src/platform/config.ts');
    const { memoryCounter } = await import('../../src/platform/limits/counter.ts');
    const { createStreamHub } = await import('../../src/platform/stream/hub.ts');
    const { defineOperation, q } = await import('../../src/platform/kernel/table.ts');
    const { id } = await import('../../src/platform/schemas.ts');
    let runs = 0;
    const slow = defineOperation({
      name: 'test.slow',
      summary: 'a slow public read',
      methods: ['GET'],
      params: { eventID: q(id) },
      auth: { kind: 'public' },
      writes: false,
      cachePublic: true,
      handler: async (_ctx, p) => {
        runs++;
        await new Promise((r) => setTimeout(r, 30));
        return [{ eventID: p.eventID, runs }];
      },
    });
    const p = await startTestPlatform('sqlite');
    const silent = { error() {}, warn() {}, info() {} };
    const d = createDispatcher({
      db: p.db,
      config: loadConfig({}),
      counter: memoryCounter(),
      jobs: { add: async () => {} } as never,
      streams: createStreamHub({ db: p.db, max: 1, heartbeatMs: 60_000 }),
      operations: [slow],
      log: silent,
    });
    const call = (eventID: number) => ({
      name: 'test.slow',
      method: 'GET',
      rawQuery: `eventID=${eventID}`,
      query: { eventID: String(eventID) },
      body: undefined,
      authorization: undefined,
      clientIp: '127.0.0.1',
    });
    const bodies = await Promise.all(Array.from({ length: 20 }, () => d.answer(call(1))));
    expect(runs).toBe(1);
    expect(new Set(bodies.map((a) => Buffer.from(a.body as Uint8Array).toString())).size).toBe(1);
    // Another key is another read; a change of the event while a read runs: the waiters compute anew.
    await d.answer(call(2));
    expect(runs).toBe(2);
    const during = Promise.all(Array.from({ length: 5 }, () => d.answer(call(3))));
    d.applyChange({ changeID: 1, at: 0, operation: 'x.edit', kind: 'x', companyID: 1, eventID: 3, objectID: null });
    await during;
    expect(runs).toBeGreaterThan(3);
    await p.close();
  });
});
