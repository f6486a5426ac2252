// The site's shutdown (`podium start` on SIGTERM calls site.close()): a page being rendered when the
// process is told to stop still reaches its visitor, and no new connection is taken. The site runs in
// this process (startSite) against a stand-in platform that holds its answers until the test lets
// them go, so the render is surely in flight when close() is called. And a platform that is not there
// at all: the pages say so with 503 and Retry-After. And TRACE, which no Web Request can carry.
import { createServer } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../src/site/build.ts';
import type { Site } from '../../src/site/server.ts';
import { ROOT } from './harness.ts';
import { get, heldPlatform, logged, siteReading, type Held } from './standin.ts';

describe('site shutdown', () => {
  let platform: Held | undefined;
  let site: Site | undefined;

  beforeAll(() => ensureBuilt(ROOT), 180_000);
  afterEach(async () => {
    platform?.release();
    await site?.close().catch(() => {});
    await new Promise((r) => platform?.server.close(r));
  });

  async function start(pageCache = false) {
    platform = await heldPlatform();
    site = await siteReading(platform.url, { dataFreshMs: 0, pageCache });
    return { platform, site };
  }

  // With the page cache on, the public port is the front thread's, and a render crosses it (front.ts).
  it.each([
    ['no page cache', false],
    ['behind the front thread', true],
  ])('lets a page in flight reach its visitor, then closes; new connections are refused (%s)', async (_, front) => {
    const { platform, site } = await start(front);
    const page = get(`${site.url}/acme`);
    await platform.asked;
    const closing = site.close();
    let closed = false;
    closing.then(
      () => (closed = true),
      () => {},
    );
    // Closing waits for the render (which waits for the platform)...
    await new Promise((r) => setTimeout(r, 200));
    expect(closed).toBe(false);
    platform.release();
    // ...which then answers as it would have: the company page of a company the platform does not know.
    const answer = await page;
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('<html');
    const started = Date.now();
    await closing;
    // The finished connection ends with its answer: close does not sit out the grace (2 s).
    expect(Date.now() - started).toBeLessThan(1500);
    await expect(get(`${site.url}/acme`)).rejects.toThrow(/ECONNREFUSED/);
  });

  // No Web Request can carry TRACE: both servers answer it before Astro (server.ts) with the 405 the
  // middleware gives PUT and DELETE (tests/site/http.test.ts has the headers), and log nothing for it.
  it.each([
    ['no page cache', false],
    ['behind the front thread', true],
  ])('answers TRACE 405 (%s)', async (_, front) => {
    const { platform, site } = await start(front);
    platform.release();
    let answer: { status: number; body: string } | undefined;
    const errors = await logged(async () => {
      answer = await get(`${site.url}/acme`, { method: 'TRACE' });
    });
    expect([answer?.status, answer?.body.trim()]).toEqual([405, 'method not allowed']);
    expect(errors).toEqual([]);
  });

  it('answers 503 with Retry-After while the platform cannot be reached (not 500)', async () => {
    // A port nobody listens on: every platform call is refused.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    site = await siteReading(`http://127.0.0.1:${port}/api`);
    const errors = await logged(async () => {
      for (const path of ['/acme/summit', '/acme/summit/schedule?code=secret-code', '/acme']) {
        const res = await fetch(`${site!.url}${path}`);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.text()).toContain('Something went wrong');
      }
    });
    // The operator hears it once, in one plain line (no stack, no query), not once per visitor.
    expect(errors).toEqual([
      `site: the platform at http://127.0.0.1:${port}/api is unreachable (connect ECONNREFUSED 127.0.0.1:${port}); pages answer 503 until it is back`,
    ]);
  });

  it('logs any other failure of a page as one line per request: its status, path and cause', async () => {
    // A platform that answers, but not in the spec's terms (a server of another API at its address).
    const wrong = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>'));
    await new Promise<void>((r) => wrong.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(wrong.address() as { port: number }).port}/api`;
    site = await siteReading(url);
    const errors = await logged(async () => {
      const res = await fetch(`${site!.url}/acme?code=secret-code`);
      // The platform is there but its answer is unreadable: a bad gateway, not a pause to wait out.
      expect(res.status).toBe(502);
      expect(res.headers.get('retry-after')).toBeNull();
      expect(await res.text()).toContain('Something went wrong');
    }).finally(() => new Promise((r) => wrong.close(r)));
    expect(errors).toEqual(['site: 502 /acme: PodiumError: the platform answered something that is not JSON']);
  });

  it.each([
    ['no page cache', false],
    ['behind the front thread', true],
  ])('ends idle keep-alive connections at once (close does not sit out the grace) (%s)', async (_, front) => {
    const { platform, site } = await start(front);
    platform.release();
    // A visitor's browser keeps its connection open between pages (30 s keep-alive).
    const agentRes = await fetch(`${site.url}/acme`);
    await agentRes.text();
    const started = Date.now();
    await site.close();
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
