// Issue 9 item 5: a flood of unknown host names must not take real custom domains down. Before, every
// host lookup of the site went to the platform from the site's one address, so 5,000 requests with
// made-up Host names (or on-demand-TLS asks) spent that address's allowance (RATE_LIMIT_CLIENT), and
// configured domains answered `503 the platform is not reachable`. Now the site calls the platform as a
// trusted client (SITE_API_KEY) naming the visitor, so each visitor spends only their own allowance;
// lookups are remembered (hits and misses, bounded, shared while in flight); and an edit of an event's
// cname reaches the site of the same process at once.
//
// The real `podium start` (platform + site) on each store, with RATE_LIMIT_CLIENT at 50 per second. The
// tests stand in for a proxy in front of the site, from 127.0.0.2 (the site's TRUST_PROXY, so their
// X-Forwarded-For names the visitor); the site reaches the platform from 127.0.0.1, which the platform
// does not trust: only the key makes it believe the visitor the site names.

import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PodiumError, createClient, type PodiumClient } from '../../src/client/index.ts';
import type { Committed } from '../../src/platform/kernel/dispatch.ts';
import { domainChangeOf } from '../../src/platform/domains.ts';
import { forwardedClient, siteKeyVerdict } from '../../src/platform/forwarded.ts';
import { HostResolver, NEGATIVE_TTL_MS, POSITIVE_TTL_MS } from '../../src/site/hosts.ts';
import { freshStore, STORES, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { editEvent, startPodium, type Podium } from '../site/harness.ts';

/** The address the tests reach the site from, as a proxy in front of it would. */
const PROXY = '127.0.0.2';
const LIMIT = 50;
const FLOOD = 5000;
/** Requests of the flood in flight at once. */
const CONCURRENCY = 48;
const LEGIT = '203.0.113.10';

interface Reply {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

/** One request with full control of the headers (Host included) and of the local address. */
function send(
  url: string,
  options: { headers?: Record<string, string>; method?: string; body?: string; agent?: Agent; from?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: options.agent,
        ...(options.agent ? {} : { localAddress: options.from ?? PROXY }),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `total` requests, `CONCURRENCY` at a time; the count of each status, and how many are done so far. */
function flood(total: number, make: (i: number) => { url: string; headers: Record<string, string> }) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress: PROXY });
  const counts: Record<number, number> = {};
  const progress = { done: 0 };
  let next = 0;
  const finished = Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const { url, headers } = make(next++);
        const { status } = await send(url, { headers, agent });
        counts[status] = (counts[status] ?? 0) + 1;
        progress.done++;
      }
    }),
  ).then(() => {
    agent.destroy();
    return counts;
  });
  return { finished, progress };
}

/**
 * Runs `step` over and over until stopped; `pause(during)` waits for the step in flight, runs `during`
 * with no step running, then resumes.
 */
function background(step: (n: number) => Promise<void>) {
  let running = true;
  let gate = Promise.resolve();
  let current = Promise.resolve();
  const done = (async () => {
    for (let n = 1; running;) {
      const g = gate;
      await g;
      if (g !== gate || !running) continue; // paused meanwhile: wait for the new gate
      current = step(n++);
      await current;
    }
  })();
  return {
    async pause(during: () => Promise<void>) {
      let open!: () => void;
      gate = new Promise<void>((r) => (open = r));
      await current;
      try {
        await during();
      } finally {
        open();
      }
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe.each(STORES)('a flood of unknown host names (%s)', (kind) => {
  let p: Podium;
  let drop: () => Promise<void>;
  const page = (host: string, path = '/', visitor = LEGIT) =>
    send(`${p.site}${path}`, { headers: { host, 'x-forwarded-for': visitor } });
  const ask = (domain: string) => send(`${p.site}/_podium/domains/ask?domain=${encodeURIComponent(domain)}`);
  const unknownHosts = (tag: string, visitor: (i: number) => string) => (i: number) => ({
    url: `${p.site}/`,
    headers: { host: `n${i}.${tag}.nowhere.test`, 'x-forwarded-for': visitor(i) },
  });
  /**
   * A flood of `make(i)` requests; meanwhile `probe` asks for the configured domain again and again, and a
   * third of the way in the event moves from `first` to `second` (the probes wait for the edit, so none
   * races it). Every probe must answer 200: what the flood did to configured domains.
   */
  async function duringFlood(
    first: string,
    second: string,
    make: (i: number) => { url: string; headers: Record<string, string> },
    probe: (host: string, n: number) => Promise<Reply>,
  ) {
    await editEvent(p, 1, 'cname', first);
    expect((await probe(first, 0)).status).toBe(200);
    const { finished, progress } = flood(FLOOD, make);
    let host = first;
    const probes: { host: string; status: number }[] = [];
    const loop = background(async (n) => {
      const h = host;
      probes.push({ host: h, status: (await probe(h, n)).status });
    });
    await until(() => progress.done >= FLOOD / 3);
    await loop.pause(async () => {
      await editEvent(p, 1, 'cname', second);
      host = second;
    });
    const counts = await finished;
    await loop.stop();
    expect(probes.filter((v) => v.host === first).length).toBeGreaterThan(0);
    expect(probes.filter((v) => v.host === second).length).toBeGreaterThan(0);
    expect(probes.filter((v) => v.status !== 200)).toEqual([]);
    return counts;
  }
  /** A legitimate visitor's page, a new one each time (rendered: it reads the platform). */
  const visit = (host: string, n: number) => page(host, `/?visit=${n}`, `203.0.113.${n % 200}`);

  beforeAll(async () => {
    const store = await freshStore(kind);
    drop = store.drop;
    // No SITE_API_KEY: `podium start` makes one for its own site.
    p = await startPodium({ DATABASE_URL: store.url, RATE_LIMIT_CLIENT: String(LIMIT), TRUST_PROXY: PROXY });
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
    await drop?.();
  });

  it('from many visitors: configured domains answer 200 throughout, a domain set mid-flood at once', async () => {
    const [first, second] = [`first.${kind}.many.test`, `second.${kind}.many.test`];
    const counts = await duringFlood(
      first,
      second,
      unknownHosts('many', (i) => `198.18.${i % 250}.1`),
      visit,
    );
    expect(counts).toEqual({ 404: FLOOD }); // 20 requests per visitor: nobody over their allowance
    expect((await page(first)).status).toBe(404);
    expect((await page(second)).status).toBe(200);
    expect((await ask(second)).status).toBe(200);
  }, 120_000);

  it('from one visitor: that visitor is refused (429), everybody else is served', async () => {
    const [first, second] = [`first.${kind}.one.test`, `second.${kind}.one.test`];
    const counts = await duringFlood(
      first,
      second,
      unknownHosts('one', () => '198.19.0.1'),
      visit,
    );
    expect(Object.keys(counts).sort()).toEqual(['404', '429']);
    expect(counts[429]).toBeGreaterThan(FLOOD / 2);
  }, 120_000);

  it('the on-demand-TLS ask under a flood: yes for configured domains, and it spends only the asker’s allowance', async () => {
    const [first, second] = [`first.${kind}.ask.test`, `second.${kind}.ask.test`];
    // Caddy asks from its own address, without X-Forwarded-For: all 5,000 asks are one caller's.
    const counts = await duringFlood(
      first,
      second,
      (i) => ({ url: `${p.site}/_podium/domains/ask?domain=n${i}.flood.ask.test`, headers: {} }),
      (host) => ask(host),
    );
    expect(Object.keys(counts).sort()).toEqual(['404', '429']);
    expect(counts[429]).toBeGreaterThan(FLOOD / 2);
    // Visitors' lookups are not the asker's.
    expect((await page(first)).status).toBe(404);
    expect((await visit(second, 0)).status).toBe(200);
  }, 120_000);

  it('the password page’s way back under a flood: unknown `back` hosts spend only their visitor’s allowance', async () => {
    const [first, second] = [`first.${kind}.back.test`, `second.${kind}.back.test`];
    // /podium-password?back= asks the host resolver whether the address is an event's domain.
    const counts = await duringFlood(
      first,
      second,
      (i) => ({
        url: `${p.site}/podium-password?back=${encodeURIComponent(`http://n${i}.flood.back.test/signin`)}`,
        headers: { 'x-forwarded-for': '198.19.0.2' },
      }),
      visit,
    );
    // The page is served every time; past the visitor's allowance it only shows no link back.
    expect(counts).toEqual({ 200: FLOOD });
    expect((await visit(second, 0)).status).toBe(200);
  }, 120_000);

  it('an edit of the cname is seen at once by the site of the same process (no waiting for the TTL)', async () => {
    const a = `a.${kind}.edit.test`;
    const b = `b.${kind}.edit.test`;
    await editEvent(p, 1, 'cname', a);
    expect((await page(a)).status).toBe(200); // remembered for POSITIVE_TTL_MS
    expect((await page(b)).status).toBe(404); // remembered for NEGATIVE_TTL_MS
    expect((await ask(b)).status).toBe(404);
    await editEvent(p, 1, 'cname', b);
    const [oldPage, newPage, oldAsk, newAsk] = await Promise.all([page(a), page(b), ask(a), ask(b)]);
    expect({ oldPage: oldPage.status, newPage: newPage.status, oldAsk: oldAsk.status, newAsk: newAsk.status }).toEqual({
      oldPage: 404,
      newPage: 200,
      oldAsk: 404,
      newAsk: 200,
    });
    // Hiding the event takes its domain down at once; showing it again brings it back.
    await editEvent(p, 1, 'visible', '0');
    expect((await page(b)).status).toBe(404);
    await editEvent(p, 1, 'visible', '1');
    expect((await page(b)).status).toBe(200);
    await editEvent(p, 1, 'cname', '');
    expect((await page(b)).status).toBe(404);
  }, 60_000);
});

describe.each(STORES)('the platform believes a forwarded visitor only with the site key (%s)', (kind) => {
  const KEY = 'site-key-'.padEnd(48, 'x');
  let api: TestPlatform;
  beforeAll(async () => {
    api = await startTestPlatform(kind, { RATE_LIMIT_CLIENT: String(LIMIT), SITE_API_KEY: KEY });
  });
  afterAll(async () => {
    await api?.close();
  });

  // 2 × LIMIT + 10 calls per case, in well under a second: whichever way they fall into the
  // limiter's one-second windows, one window holds more than LIMIT.
  const cases: {
    name: string;
    headers: (visitor: (i: number) => string, i: number) => Record<string, string>;
    limited: boolean;
  }[] = [
    { name: 'no header', headers: () => ({}), limited: true },
    { name: 'a visitor without the key', headers: (v, i) => ({ 'x-podium-client-ip': v(i) }), limited: true },
    {
      name: 'a visitor with a wrong key of the same length',
      headers: (v, i) => ({ 'x-podium-site-key': KEY.replace(/x$/, 'y'), 'x-podium-client-ip': v(i) }),
      limited: true,
    },
    {
      name: 'a visitor with a short key',
      headers: (v, i) => ({ 'x-podium-site-key': 'site-key', 'x-podium-client-ip': v(i) }),
      limited: true,
    },
    {
      name: 'X-Forwarded-For from an untrusted address',
      headers: (v, i) => ({ 'x-forwarded-for': v(i) }),
      limited: true,
    },
    {
      name: 'X-Forwarded-For with the key',
      headers: (v, i) => ({ 'x-podium-site-key': KEY, 'x-forwarded-for': v(i) }),
      limited: true,
    },
    {
      name: 'the key with something that is not an address',
      headers: (v, i) => ({ 'x-podium-site-key': KEY, 'x-podium-client-ip': `visitor-${i}` }),
      limited: true,
    },
    {
      name: 'the key with one visitor (its own limit still applies)',
      headers: (v) => ({ 'x-podium-site-key': KEY, 'x-podium-client-ip': v(1) }),
      limited: true,
    },
    {
      name: 'the key with a different visitor each call',
      headers: (v, i) => ({ 'x-podium-site-key': KEY, 'x-podium-client-ip': v(i) }),
      limited: false,
    },
  ];
  let address = 10;
  describe.each(['GET', 'POST'])('%s', (method) => {
    it.each(cases)('$name', async ({ headers, limited }) => {
      // Its own loopback address and its own visitors: no case spends another's allowance.
      const n = address++;
      const from = `127.0.0.${n}`;
      const visitor = (i: number) => `198.51.${n}.${i}`;
      const statuses: number[] = [];
      for (let i = 0; i < 2 * LIMIT + 10; i++) {
        const res = await send(`${api.url}/?action=api.ping`, {
          method,
          from,
          headers: {
            ...headers(visitor, i),
            ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: method === 'POST' ? '' : undefined,
        });
        statuses.push(res.status);
      }
      const refused = statuses.filter((s) => s === 429).length;
      if (limited) expect(refused).toBeGreaterThanOrEqual(1);
      else expect(statuses.filter((s) => s !== 200)).toEqual([]);
    });
  });

  it('tells a caller whether the site key it sent is this one, and a caller that sent none nothing', async () => {
    const verdict = async (siteKey: string | undefined) => {
      const client = createClient({ baseUrl: api.url, siteKey });
      try {
        return await client.siteKeyVerdict();
      } finally {
        await client.close();
      }
    };
    expect(await verdict(KEY)).toBe('accepted');
    expect(await verdict(KEY.replace(/x$/, 'y'))).toBe('refused');
    expect(await verdict(undefined)).toBeUndefined();
    const plain = await fetch(`${api.url}/api/ping`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-podium-site-key')).toBeNull();
  });
});

describe('forwardedClient', () => {
  const KEY = 'k'.repeat(40);
  const read = forwardedClient(KEY);
  it.each([
    [{ 'x-podium-site-key': KEY, 'x-podium-client-ip': '198.51.100.7' }, '198.51.100.7'],
    [{ 'x-podium-site-key': KEY, 'x-podium-client-ip': ' ::ffff:198.51.100.7 ' }, '198.51.100.7'],
    [{ 'x-podium-site-key': KEY, 'x-podium-client-ip': '2001:DB8::1' }, '2001:db8::1'],
    [{ 'x-podium-site-key': KEY, 'x-podium-client-ip': '198.51.100.7, 10.0.0.1' }, undefined],
    [{ 'x-podium-site-key': KEY }, undefined],
    [{ 'x-podium-site-key': `${KEY}k`, 'x-podium-client-ip': '198.51.100.7' }, undefined],
    [{ 'x-podium-site-key': KEY.toUpperCase(), 'x-podium-client-ip': '198.51.100.7' }, undefined],
    [{ 'x-podium-client-ip': '198.51.100.7' }, undefined],
    [{ 'x-podium-site-key': [KEY, KEY], 'x-podium-client-ip': '198.51.100.7' }, undefined],
  ] as [IncomingHttpHeaders, string | undefined][])('%j → %s', (headers, expected) => {
    expect(read(headers)).toBe(expected);
  });
  it('believes nothing without a key', () => {
    expect(forwardedClient(undefined)({ 'x-podium-site-key': '', 'x-podium-client-ip': '1.2.3.4' })).toBeUndefined();
  });
});

describe('siteKeyVerdict', () => {
  const KEY = 'k'.repeat(40);
  it.each([
    [KEY, {}, undefined],
    [KEY, { 'x-podium-site-key': KEY }, 'accepted'],
    [KEY, { 'x-podium-site-key': `${KEY}k` }, 'refused'],
    [KEY, { 'x-podium-site-key': '' }, 'refused'],
    [KEY, { 'x-podium-site-key': [KEY, KEY] }, 'refused'],
    // A platform without a key takes none: the site's key is as good as wrong there.
    [undefined, { 'x-podium-site-key': KEY }, 'refused'],
    [undefined, {}, undefined],
  ] as [string | undefined, IncomingHttpHeaders, string | undefined][])('key %s, %j → %s', (key, headers, expected) => {
    expect(siteKeyVerdict(key)(headers)).toBe(expected);
  });
});

describe('domainChangeOf', () => {
  const row = (r: Record<string, unknown>) => [r];
  it.each([
    [{ name: 'event.edit', params: { eventID: 3, key: 'cname' }, result: row({ cname: 'x.example.com' }) }, { eventID: 3, cname: 'x.example.com' }],
    [{ name: 'event.edit', params: { eventID: 3, key: 'cname' }, result: row({ cname: '' }) }, { eventID: 3, cname: '' }],
    [{ name: 'event.edit', params: { eventID: 3, key: 'nickname' }, result: row({ cname: '' }) }, { eventID: 3, cname: '' }],
    [{ name: 'event.edit', params: { eventID: 3, key: 'visible' }, result: { rows: [], total: 0 } }, { eventID: 3 }],
    [{ name: 'event.edit', params: { eventID: 3, key: 'name' }, result: row({ cname: 'x.example.com' }) }, undefined],
    [{ name: 'company.edit', params: { companyID: 2, key: 'namespace' }, result: row({ companyID: '2' }) }, { companyID: 2 }],
    [{ name: 'company.edit', params: { companyID: 2, key: 'name' }, result: row({ companyID: '2' }) }, undefined],
    [{ name: 'event.create', params: {}, result: row({ cname: 'x.example.com' }) }, undefined],
  ] as [Committed, unknown][])('%j', (committed, expected) => {
    expect(domainChangeOf(committed)).toEqual(expected);
  }); // prettier-ignore
});

describe('HostResolver under a flood', () => {
  /** A fake platform: `summit.example.com` is event 1 of company 1; answers wait for `release()` when held. */
  function fakePlatform() {
    const calls: { cname: string; visitor?: string; fresh?: boolean }[] = [];
    let held: (() => void)[] | undefined;
    let failure: Error | undefined;
    const domains = new Map([['summit.example.com', '1']]);
    const client = {
      eventGet: async (by: { cname: string }, _grant: unknown, ctx: { clientIp?: string; fresh?: boolean }) => {
        calls.push({ cname: by.cname, visitor: ctx.clientIp, fresh: ctx.fresh });
        // The answer is what the store holds now, delivered when released.
        const id = domains.get(by.cname);
        const error = failure;
        if (held) await new Promise<void>((r) => held!.push(r));
        if (error) throw error;
        if (id) return { eventID: id, companyID: '1', nickname: `event${id}` };
        throw new PodiumError(404, 'event not found', 'event.get');
      },
      companyGet: async () => ({ namespace: 'demo' }),
    } as unknown as PodiumClient;
    return {
      client,
      calls,
      domains,
      hold: () => (held = []),
      release: () => {
        const waiting = held ?? [];
        held = undefined;
        waiting.forEach((r) => r());
      },
      fail: (err: Error | undefined) => (failure = err),
    };
  }

  it('looks a name up once for concurrent requests, for the visitor who asked first, never reusing an old answer', async () => {
    const f = fakePlatform();
    const hosts = new HostResolver(f.client, []);
    f.hold();
    const all = Array.from({ length: 100 }, (_, i) => hosts.resolve('summit.example.com', `198.51.100.${i}`));
    f.release();
    const sites = await Promise.all(all);
    expect(sites.every((s) => s.kind === 'event' && s.eventID === 1)).toBe(true);
    expect(f.calls).toEqual([{ cname: 'summit.example.com', visitor: '198.51.100.0', fresh: true }]);
  });

  it('keeps memory bounded: 30,000 made-up names leave at most maxEntries misses, and hits are never pushed out', async () => {
    const f = fakePlatform();
    const hosts = new HostResolver(f.client, [], { maxEntries: 1000 });
    await hosts.resolve('summit.example.com');
    for (let i = 0; i < 30_000; i++) await hosts.resolve(`n${i}.nowhere.test`, '198.51.100.1');
    expect(hosts.size).toBe(1001);
    const before = f.calls.length;
    expect(hosts.resolve('summit.example.com')).toMatchObject({ kind: 'event' }); // synchronously, no lookup
    expect(f.calls.length).toBe(before);
  });

  it('remembers hits for POSITIVE_TTL_MS and misses for NEGATIVE_TTL_MS', async () => {
    const f = fakePlatform();
    let now = 1_000_000;
    const hosts = new HostResolver(f.client, [], { now: () => now });
    await hosts.resolve('summit.example.com');
    await hosts.resolve('other.example.com');
    now += NEGATIVE_TTL_MS - 1;
    expect(hosts.resolve('other.example.com')).toEqual({ kind: 'unknown' });
    now += 1;
    await hosts.resolve('other.example.com');
    expect(f.calls.map((c) => c.cname)).toEqual(['summit.example.com', 'other.example.com', 'other.example.com']);
    now = 1_000_000 + POSITIVE_TTL_MS - 1;
    expect(hosts.resolve('summit.example.com')).toMatchObject({ kind: 'event' });
    now += 1;
    await hosts.resolve('summit.example.com');
    expect(f.calls.filter((c) => c.cname === 'summit.example.com')).toHaveLength(2);
  });

  it('keeps serving a configured domain whose re-lookup fails (the visitor over their limit, the platform down)', async () => {
    const f = fakePlatform();
    let now = 1_000_000;
    const hosts = new HostResolver(f.client, [], { now: () => now });
    await hosts.resolve('summit.example.com');
    now += POSITIVE_TTL_MS;
    f.fail(new PodiumError(429, 'too many calls from this address', 'event.get', 1));
    expect(await hosts.resolve('summit.example.com', '198.51.100.9')).toMatchObject({ kind: 'event', eventID: 1 });
    // A name never seen gets the error itself.
    await expect(hosts.resolve('new.example.com')).rejects.toMatchObject({ status: 429 });
    // Once the platform answers that the domain is gone, it is gone.
    f.fail(undefined);
    f.domains.delete('summit.example.com');
    now += 10_000;
    expect(await hosts.resolve('summit.example.com')).toEqual({ kind: 'unknown' });
  });

  it('holds at most maxPending lookups in flight; more names are answered busy without a call', async () => {
    const f = fakePlatform();
    const hosts = new HostResolver(f.client, [], { maxPending: 8 });
    await hosts.resolve('summit.example.com');
    f.hold();
    const flood = Array.from({ length: 20 }, (_, i) => Promise.resolve(hosts.resolve(`n${i}.nowhere.test`)));
    const settled = Promise.allSettled(flood);
    expect(f.calls.length).toBe(1 + 8);
    expect(hosts.resolve('summit.example.com')).toMatchObject({ kind: 'event' }); // a hit needs no lookup
    f.release();
    const results = await settled;
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(8);
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.status),
    ).toEqual(Array(12).fill(503));
  });

  it('forget: the old domain stops and the new one starts at once; a lookup in flight does not bring back the old answer', async () => {
    const f = fakePlatform();
    let now = 1_000_000;
    const hosts = new HostResolver(f.client, [], { now: () => now });
    await hosts.resolve('summit.example.com');
    expect(await hosts.resolve('new.example.com')).toEqual({ kind: 'unknown' });
    expect(hosts.resolve('summit.example.com')).toMatchObject({ kind: 'event' });
    // The event moves to new.example.com while a re-lookup of its old domain is on its way back.
    now += POSITIVE_TTL_MS;
    f.hold();
    const inFlight = hosts.resolve('summit.example.com');
    f.domains.delete('summit.example.com');
    f.domains.set('new.example.com', '1');
    hosts.forget({ eventID: 1, cname: 'NEW.example.com' });
    f.release();
    await inFlight;
    expect(await hosts.resolve('summit.example.com')).toEqual({ kind: 'unknown' });
    expect(await hosts.resolve('new.example.com')).toMatchObject({ kind: 'event', eventID: 1 });
    // Without a re-lookup in flight: the hit itself is forgotten.
    f.domains.delete('new.example.com');
    hosts.forget({ eventID: 1, cname: '' });
    expect(await hosts.resolve('new.example.com')).toEqual({ kind: 'unknown' });
  });

  it('never looks up IP literals, single labels or its own hosts', async () => {
    const f = fakePlatform();
    const hosts = new HostResolver(f.client, ['events.example.org']);
    expect(hosts.resolve('events.example.org')).toEqual({ kind: 'platform' });
    expect(hosts.resolve('10.0.0.1')).toEqual({ kind: 'unknown' });
    expect(hosts.resolve('::1')).toEqual({ kind: 'unknown' });
    expect(hosts.resolve('localhost2')).toEqual({ kind: 'unknown' });
    expect(f.calls).toEqual([]);
  });
});
