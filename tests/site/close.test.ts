// The site's shutdown (`podium start` on SIGTERM calls site.close()): a page being rendered when the
// process is told to stop still reaches its visitor, and no new connection is taken. The site runs in
// this process (startSite) against a stand-in platform that holds its answers until the test lets
// them go, so the render is surely in flight when close() is called. And a platform that is not there
// at all: the pages say so with 503 and Retry-After.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../src/site/build.ts';
import { startSite, type Site, type SiteOptions } from '../../src/site/server.ts';
import { ROOT } from './harness.ts';

interface Held {
  server: Server;
  url: string;
  /** Resolves when the platform has been asked something (a render is waiting on it). */
  asked: Promise<void>;
  /** Answers everything asked so far and from now on. */
  release(): void;
}

/** A platform that answers every call with an empty list (the site shows "not found"), once released. */
async function heldPlatform(): Promise<Held> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let asked!: () => void;
  const wasAsked = new Promise<void>((r) => (asked = r));
  const server = createServer((_req, res) => {
    asked();
    void released.then(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"count":"0","data":[]}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}/api`, asked: wasAsked, release };
}

/** GET over a connection of its own: the status and body, or the error the socket ended with. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** A site reading the platform at `url`, with no page cache and no change stream. */
function siteReading(url: string, options: Partial<SiteOptions> = {}): Promise<Site> {
  return startSite({
    root: ROOT,
    apiUrl: url,
    publicApiUrl: url,
    siteHosts: ['127.0.0.1'],
    host: '127.0.0.1',
    port: 0,
    pageCache: false,
    followChanges: false,
    ...options,
  });
}

/** The lines `run` writes with console.error. */
async function logged(run: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console.error = log;
  }
  return errors;
}

describe('site shutdown', () => {
  let platform: Held | undefined;
  let site: Site | undefined;

  beforeAll(() => ensureBuilt(ROOT), 180_000);
  afterEach(async () => {
    platform?.release();
    await site?.close().catch(() => {});
    await new Promise((r) => platform?.server.close(r));
  });

  async function start() {
    platform = await heldPlatform();
    site = await siteReading(platform.url, { dataFreshMs: 0 });
    return { platform, site };
  }

  it('lets a page in flight reach its visitor, then closes; new connections are refused', async () => {
    const { platform, site } = await start();
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

  it('ends idle keep-alive connections at once (close does not sit out the grace)', async () => {
    const { platform, site } = await start();
    platform.release();
    // A visitor's browser keeps its connection open between pages (30 s keep-alive).
    const agentRes = await fetch(`${site.url}/acme`);
    await agentRes.text();
    const started = Date.now();
    await site.close();
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
