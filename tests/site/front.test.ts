// The front thread (src/site/front.ts, front-worker.ts): with the page cache on, the site's public port
// is a worker thread's, which answers stored pages itself and hands the rest to the renderer as
// messages (ask.ts). The site runs in this process against a stand-in platform that records the visitor's
// address each call names (X-Podium-Client-IP, sent with the site's key).
import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../src/site/build.ts';
import { startFront, type Asked } from '../../src/site/front.ts';
import type { Site } from '../../src/site/server.ts';
import { CLIENT_IP_HEADER } from '../../src/shared/site-key.ts';
import { ROOT } from './harness.ts';
import { get, logged, siteReading } from './standin.ts';

let platform: Server;
let site: Site;
/** The visitor each platform call named, in order. */
const named: string[] = [];
/** Requests that reached the renderer (the main thread). */
const rendered = () => site.handled();

beforeAll(async () => {
  await ensureBuilt(ROOT);
  platform = createServer((req, res) => {
    named.push(String(req.headers[CLIENT_IP_HEADER] ?? ''));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"count":"0","data":[]}');
  });
  await new Promise<void>((r) => platform.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(platform.address() as { port: number }).port}/api`;
  // The tests stand in for a proxy at 127.0.0.1; a visitor from 127.0.0.2 is no proxy.
  site = await siteReading(url, { pageCache: true, dataFreshMs: 0, siteKey: 'k'.repeat(32), trustProxy: '127.0.0.1' });
}, 180_000);
afterAll(async () => {
  await site?.close();
  await new Promise((r) => platform?.close(r));
});

describe('the front thread', () => {
  it('answers a stored page and its 304 without the renderer', async () => {
    const first = await fetch(`${site.url}/`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toMatch(/^public/);
    const etag = first.headers.get('etag')!;
    const before = rendered();
    for (const encoding of ['br', 'gzip', 'identity']) {
      // The first request of an encoding makes its variant in the renderer; later ones are the front's.
      await fetch(`${site.url}/`, { headers: { 'accept-encoding': encoding } });
    }
    const made = rendered();
    for (let i = 0; i < 5; i++) {
      const again = await fetch(`${site.url}/`, { headers: { 'accept-encoding': 'br' } });
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toContain('<html');
      const revalidated = await fetch(`${site.url}/`, { headers: { 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
    }
    expect(made - before).toBeLessThanOrEqual(3);
    expect(rendered()).toBe(made);
  });

  it("answers the build's files itself, compressed as asked, and 304 to their ETag", async () => {
    const home = await (await fetch(`${site.url}/`)).text();
    const asset = /href="(\/_astro\/[^"]+\.css)"/.exec(home)![1];
    const before = rendered();
    const file = await fetch(`${site.url}${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-encoding')).toBe('br');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('vary')).toBe('Accept-Encoding');
    expect(await file.text()).toMatch(/[{}]/);
    const again = await fetch(`${site.url}${asset}`, {
      headers: { 'accept-encoding': 'br', 'if-none-match': file.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(rendered()).toBe(before);
    // What is not a file still reaches the renderer (Astro's 404 page, not a front's answer).
    const missing = await fetch(`${site.url}/_astro/nothing-here.css`);
    expect(missing.status).toBe(404);
    expect(rendered()).toBe(before + 1);
  });

  // The visitor's address as the platform hears it: the front's socket is the renderer's peer, so the
  // front names the visitor, and X-Forwarded-For is believed only from TRUST_PROXY addresses as before.
  const visitors: [string, string, Record<string, string>, string][] = [
    ['a visitor, no proxy', '127.0.0.2', {}, '127.0.0.2'],
    [
      "a visitor's own X-Forwarded-For and hop headers are not believed",
      '127.0.0.2',
      { 'x-forwarded-for': '198.51.100.7', 'x-podium-peer': '203.0.113.9', 'x-podium-front': 'guess' },
      '127.0.0.2',
    ],
    ['a trusted proxy names its visitor', '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }, '198.51.100.7'],
  ];
  it.each(visitors)('%s', async (_, from, headers, heard) => {
    named.length = 0;
    // A company page that is not there: not stored, so each request reaches the platform.
    const answer = await get(`${site.url}/acme`, { localAddress: from, headers });
    expect(answer.status).toBe(404);
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([heard]));
  });

  it('keeps answering when visitors go away in the middle of answers', async () => {
    const errors = await logged(async () => {
      const ends = Array.from({ length: 120 }, async (_, i) => {
        const abort = new AbortController();
        const going = fetch(`${site.url}/acme?n=${i}`, { signal: abort.signal }).then((r) => r.text());
        setTimeout(() => abort.abort(), i % 7);
        await going.catch(() => {});
      });
      await Promise.all(ends);
      // Still there: a page, and a stored one.
      expect((await get(`${site.url}/acme`)).status).toBe(404);
      expect((await get(`${site.url}/`)).status).toBe(200);
    });
    expect(errors.filter((e) => /front thread/.test(e))).toEqual([]);
  });
});

describe('the front against a stand-in renderer', () => {
  let front: ReturnType<typeof startFront>;
  let url: string;
  /** Requests whose visitor left before their answer's end, as the renderer heard it. */
  const gone: string[] = [];
  /** Every request the renderer was handed. */
  const asks: string[] = [];
  beforeAll(async () => {
    // What the renderer answers (server.ts does this with the page cache and Astro), as messages.
    const asked: Asked = (ask, post) => {
      asks.push(`${ask.method} ${ask.url}`);
      const text = (body: string) => new TextEncoder().encode(body);
      const head = { type: 'head', id: ask.id, status: 200, headers: { 'content-type': 'text/plain' } } as const;
      // /cut sends a part of its body, then says it failed.
      if (ask.url === '/cut') {
        post({ ...head, body: text('x'.repeat(50_000)), end: false });
        setTimeout(() => post({ type: 'cut', id: ask.id }), 20);
      } else if (ask.url === '/parts') {
        // A body in parts (a stream): each as it comes.
        post({ ...head, body: text('one, '), end: false });
        setTimeout(() => post({ type: 'body', id: ask.id, body: text('two, '), end: false }), 10);
        setTimeout(() => post({ type: 'body', id: ask.id, body: text('three'), end: true }), 20);
      } else if (ask.url === '/slow') {
        // Never answers: the visitor leaves first.
      } else if (ask.method === 'POST') {
        post({ ...head, body: text(`got ${Buffer.from(ask.body ?? []).toString()}`), end: true });
      } else post({ ...head, body: text('whole'), end: true });
      return () => gone.push(ask.url);
    };
    front = startFront(
      {
        host: '127.0.0.1',
        port: 0,
        maxBytes: 1_000_000,
        keepAliveTimeout: 5000,
        files: mkdtempSync(join(tmpdir(), 'podium-front-files-')),
      },
      () => [],
      asked,
    );
    url = `http://127.0.0.1:${await front.listening}`;
  });
  afterAll(async () => {
    await front?.close(100);
  });

  it('sends a body that comes in parts as it comes, and tells the renderer when a visitor leaves', async () => {
    expect(await (await fetch(`${url}/parts`)).text()).toBe('one, two, three');
    const abort = new AbortController();
    const leaving = fetch(`${url}/slow`, { signal: abort.signal }).catch(() => 'left');
    setTimeout(() => abort.abort(), 50);
    expect(await leaving).toBe('left');
    await expect.poll(() => gone).toEqual(['/slow']);
  });

  it("cuts the visitor's answer short when the renderer cuts it, and goes on answering", async () => {
    const cut = await fetch(`${url}/cut`);
    expect(cut.status).toBe(200);
    // The body ends in an error, not in a hang nor as if it were whole.
    await expect(cut.text()).rejects.toThrow();
    expect(await (await fetch(`${url}/after`)).text()).toBe('whole');
  });

  it.each<[string, Record<string, string>]>([
    ['with its length', { 'content-length': '9' }],
    ['chunked', { 'transfer-encoding': 'chunked' }],
    ['after Expect: 100-continue', { 'content-length': '9', expect: '100-continue' }],
  ])('hands a form on, its body %s', async (_, headers) => {
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(`${url}/form`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      });
      req.on('error', reject);
      // With Expect, the body goes once the server said to continue.
      if (headers.expect) req.on('continue', () => req.end('code=1234'));
      else req.end('code=1234');
    });
    expect(answer).toBe('200 got code=1234');
  });

  it.each<[string, Record<string, string>]>([
    ['with its length', { 'content-length': String(16 * 1024 + 1) }],
    ['chunked', { 'transfer-encoding': 'chunked' }],
  ])('refuses a form past 16 KiB, %s, with 413 and the renderer never asked', async (_, headers) => {
    const before = asks.length;
    const answer = await new Promise<string>((resolve) => {
      const req = request(`${url}/form`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(`${res.statusCode} ${res.headers.connection} ${text}`));
      });
      // The front may end the connection before the whole body went: the answer came first.
      req.on('error', () => {});
      req.end('x'.repeat(16 * 1024 + 1));
    });
    expect(answer).toBe('413 close request body too large (at most 16384 bytes)');
    expect(asks.length).toBe(before);
  });

  it('a front thread that dies is started again on the same port, and says so once', async () => {
    const errors: string[] = [];
    const log = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '));
    try {
      // A change without its scope: the copy throws on it, which ends the thread.
      front.send({ type: 'follow', event: { change: null } } as never);
      await expect.poll(() => errors.length, { timeout: 10_000 }).toBe(1);
      // Answers again on the same port once the new thread listens.
      await expect
        .poll(
          () =>
            fetch(`${url}/again`).then(
              (r) => r.text(),
              () => 'refused',
            ),
          { timeout: 10_000 },
        )
        .toBe('whole');
    } finally {
      console.error = log;
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^site: the front thread failed: /);
  });
});
