// The site's server (`podium start`, `podium site`): one node:http server with three steps. With the page
// cache on, it listens on loopback behind the front thread (front.ts), which holds the public port and
// answers the cached pages itself; without it, it listens on the public port.
// 1. The page cache (pagecache.ts): a public page already rendered for this host, path, query and
//    language (pagekey.ts) is answered from memory — 200 in the encoding asked for, or 304 on a matching
//    ETag — without Astro. Its staleness budget is in docs/site.md ("The page cache").
// 2. Files of the build (files.ts: sirv, with the .br/.gz the build wrote beside them) — here only
//    without the front; with it, the front answers them itself.
// 3. Everything else to Astro: the build's entry (adapter.ts) renders a Web Request made here
//    (astro-http.ts) with `locals.runtime`; src/middleware.ts resolves the host, rewrites custom domains, redirects ?lang=,
//    and stores public pages in the cache. `astro dev` runs the same middleware without this front.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChangeFollower } from '../client/index.ts';
import { copyBuild } from './build.ts';
import { encodingOf } from './compress.ts';
import type { SiteRuntime } from './context.ts';
import { readBody, sendResponse, webRequest } from './astro-http.ts';
import { siteFiles } from './files.ts';
import { notModified } from './etag.ts';
import { type DomainChange, type HostResolver } from './hosts.ts';
import { startFront, type Front } from './front.ts';
import { newHopSecret, takePeer } from './hop.ts';
import type { MirrorMessage } from './mirror.ts';
import { BODY_LIMIT, clientIp, normalizeHostname, sendText } from './net.ts';
import { pageKeyOfRequest } from './pagekey.ts';
import { PAGE_CACHE_BYTES, type CachedPage, type Variant } from './pagecache.ts';
import { failureLine } from './report.ts';
import { createRuntime, type RuntimeOptions } from './runtime.ts';

export interface SiteOptions extends Omit<RuntimeOptions, 'siteUrl'> {
  /** The repository root: its dist/ (the Astro build) is copied and served from the copy. */
  root: string;
  /** The public address of the platform's own site (default: the address it listens on). */
  siteUrl?: string;
  host: string;
  port: number;
}

export interface Site {
  url: string;
  port: number;
  /** The renderer's server (on loopback behind the front thread when the page cache is on). */
  server: Server;
  runtime: SiteRuntime;
  hosts: HostResolver;
  /** The platform's change stream, when followed. */
  follower: ChangeFollower | undefined;
  /** An event's custom domain (or what it routes to) changed: forget what was looked up (`podium start`). */
  domainChanged(change: DomainChange): void;
  close(): Promise<void>;
}

/** The build's server entry (dist/server/entry.mjs: adapter-entry.ts). */
type Render = typeof import('./adapter-entry.ts').render;

/** How long a shutdown waits for the answers in flight before it ends their connections. */
const CLOSE_GRACE_MS = 2000;
const KEEP_ALIVE_MS = 30_000;

export async function startSite(options: SiteOptions): Promise<Site> {
  const listenHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  let front: Front | undefined;
  const runtime = createRuntime({
    ...options,
    siteUrl: options.siteUrl ?? `http://${listenHost}`,
    mirror: (message) => front?.send(message),
  });
  const pageCache = runtime.pageCache;
  // Only the front thread knows it: the visitor's address it names is believed with it (hop.ts).
  const secret = pageCache ? newHopSecret() : undefined;
  // Served from a copy of the build of its own: a rebuild of dist/ meanwhile changes nothing here.
  const build = await copyBuild(options.root);
  const entry = pathToFileURL(join(build.dir, 'server/entry.mjs')).href;
  const { render } = (await import(entry)) as { render: Render };

  const clientDir = join(build.dir, 'client');
  // With the front the files are its own (no hop): the renderer answers them only without one.
  const files = secret ? undefined : siteFiles(clientDir);

  async function toAstro(req: IncomingMessage, res: ServerResponse, peer: string | undefined): Promise<void> {
    let body: Buffer | undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      body = await readBody(req, BODY_LIMIT);
      if (body === undefined) return tooLarge(res);
    }
    const response = await render(webRequest(req, body), { runtime, peer }, peer);
    if (!response) return sendText(res, 404, 'not found');
    await sendResponse(res, response);
  }

  /** A body past the limit: said, and the connection ends (the rest of the body is not read). */
  function tooLarge(res: ServerResponse): void {
    res.setHeader('connection', 'close');
    sendText(res, 413, `request body too large (at most ${BODY_LIMIT} bytes)`);
  }

  function serve(req: IncomingMessage, res: ServerResponse, peer: string | undefined): void | Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (Number(req.headers['content-length']) > BODY_LIMIT) return tooLarge(res);
      return toAstro(req, res, peer);
    }
    if (!files) return toAstro(req, res, peer);
    files(req, res, () => toAstro(req, res, peer).catch((err: unknown) => fail(req, res, err)));
  }

  /** One request: synchronous up to the answer on a page-cache hit or 304 (no promise). */
  function handle(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const method = req.method;
    const peer = takePeer(req, secret);
    if (pageCache && (method === 'GET' || method === 'HEAD')) {
      const h = req.headers;
      const key = pageKeyOfRequest(h.host, req.url ?? '/', h.cookie, h['accept-language']);
      const asker = { socket: { remoteAddress: peer }, headers: h };
      const hit = key === undefined ? undefined : pageCache.lookup(key, () => clientIp(asker, runtime.trusted));
      if (hit instanceof Promise)
        return hit.then((page) => (page ? sendCached(req, res, page) : serve(req, res, peer)));
      if (hit) return sendCached(req, res, hit);
    }
    return serve(req, res, peer);
  }

  function sendCached(req: IncomingMessage, res: ServerResponse, page: CachedPage): void | Promise<void> {
    const inm = req.headers['if-none-match'];
    if (inm !== undefined && (inm === page.etag || notModified(inm, page.etag))) {
      res.writeHead(304, page.headers304);
      res.end();
      return;
    }
    const encoding = page.compressible ? encodingOf(req.headers['accept-encoding']) : undefined;
    const variant = encoding && pageCache ? pageCache.variant(page, encoding) : undefined;
    // Only the first request for an encoding waits for its compression; later hits send the kept bytes.
    if (variant instanceof Promise) return variant.then((made) => writePage(req, res, page.status, made ?? page));
    writePage(req, res, page.status, variant ?? page);
  }

  function writePage(req: IncomingMessage, res: ServerResponse, status: number, sent: Variant): void {
    res.writeHead(status, sent.headers);
    res.end(req.method === 'HEAD' ? undefined : sent.body);
  }

  function fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    // One line, the path without its query (failureLine): a query may hold a secret (the code of a
    // password link), and a stack per request floods the log of a busy site.
    console.error(failureLine(500, req.url ?? '', err));
    if (!res.headersSent) sendText(res, 500, 'internal error');
    else res.destroy();
  }

  const server = createServer((req, res) => {
    try {
      const done = handle(req, res);
      if (done) done.catch((err: unknown) => fail(req, res, err));
    } catch (err) {
      fail(req, res, err);
    }
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Behind the front, on loopback only, on a port of the system's choosing.
    server.listen(secret ? 0 : options.port, secret ? '127.0.0.1' : options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const own = typeof address === 'object' && address ? address.port : options.port;
  if (secret) {
    const follower = runtime.follower;
    const opening = (): MirrorMessage[] => [
      { type: 'sync', mark: follower?.freshness.mark() ?? 0 },
      { type: 'follow', event: { live: follower?.live ?? false } },
    ];
    const data = {
      host: options.host,
      port: options.port,
      rendererPort: own,
      secret,
      keepAliveTimeout: KEEP_ALIVE_MS,
      files: clientDir,
    };
    const started = startFront({ ...data, maxBytes: PAGE_CACHE_BYTES }, opening);
    front = started;
    // Each change the follower applies goes to the front's copy too, in order with the pages.
    follower?.watch((event) => started.send({ type: 'follow', event }));
    try {
      await started.listening;
    } catch (err) {
      await new Promise((r) => server.close(r));
      await runtime.close();
      build.remove();
      throw err;
    }
  }
  const port = front ? await front.listening : own;
  let ended: Promise<void> | undefined;
  const url = `http://${listenHost === '0.0.0.0' || listenHost === '[::]' ? '127.0.0.1' : listenHost}:${port}`;
  if (!options.siteUrl) runtime.siteUrl = url;
  return {
    url,
    port,
    server,
    runtime,
    hosts: runtime.hosts,
    follower: runtime.follower,
    domainChanged(change) {
      runtime.hosts.forget(change);
      // Pages are kept by host name: the domain's old pages must not outlive the change.
      pageCache?.clear();
      // The new domain is looked up now, as the site's own call: Caddy's first ask for it (before any
      // visitor can come over https) finds it known even while a flood of asks spends Caddy's allowance.
      const cname = change.cname ? normalizeHostname(change.cname) : undefined;
      if (cname) Promise.resolve(runtime.hosts.resolve(cname)).catch(() => {});
    },
    close() {
      // As the API closes (src/platform/app.ts): no new connections, the idle ones end now, and the
      // answers in flight finish — a restart drops no visitor's page. Past a grace every connection
      // ends (a client may hold one open); the platform client closes last, when no render needs it.
      // Once: a second call waits for the same end.
      ended ??= (async () => {
        // The front first: it hands the renderer nothing more, and its answers in flight finish.
        await front?.close(CLOSE_GRACE_MS);
        const closed = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        await closed;
        clearTimeout(grace);
        await runtime.close();
        build.remove();
      })();
      return ended;
    },
  };
}
