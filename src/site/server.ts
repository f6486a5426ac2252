// The site's server (`podium start`, `podium site`): the renderer, in the main thread. With the page
// cache on (the default), the front thread (front.ts) holds the public port, answers the cached pages
// and the build's files itself, and hands every other request here as a message (ask.ts); with it off,
// a node:http server of this thread takes the public port and serves the files itself.
// 1. The page cache (pagecache.ts): a public page already rendered for this host, path, query and
//    language (pagekey.ts) is answered from memory — 200 in the encoding asked for, or 304 on a matching
//    ETag — without Astro. The front's copy answers most of these; here come the ones it could not (a
//    variant not made yet, a page to re-check). Its staleness budget is in docs/site.md ("The page cache").
// 2. Files of the build (files.ts: sirv, with the .br/.gz the build wrote beside them) — here only
//    without the front; with it, the front answers them itself.
// 3. Everything else to Astro: the build's entry (adapter.ts) renders a Web Request (astro-http.ts) with
//    `locals.runtime`; src/middleware.ts resolves the host, rewrites custom domains, redirects ?lang=, and
//    stores public pages in the cache. `astro dev` runs the same middleware without this server.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChangeFollower } from '../client/index.ts';
import { Reply, type Ask } from './ask.ts';
import { METHOD_NOT_ALLOWED, NOT_REQUESTS, readBody, sendResponse, webRequest } from './astro-http.ts';
import { copyBuild } from './build.ts';
import type { SiteRuntime } from './context.ts';
import { takes } from './etag.ts';
import { siteFiles } from './files.ts';
import { startFront, type Front } from './front.ts';
import { type DomainChange, type HostResolver } from './hosts.ts';
import type { MirrorMessage } from './mirror.ts';
import { BODY_LIMIT, clientIp, normalizeHostname, sendText, sendTooLarge, textAnswer } from './net.ts';
import { pageKeyOfRequest } from './pagekey.ts';
import { PAGE_CACHE_BYTES, type CachedPage } from './pagecache.ts';
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
  /** The renderer's own server on the public port: only without the front (page cache off). */
  server: Server | undefined;
  /** How many requests the renderer has taken, from the front or on its own port (tests, diagnostics). */
  handled(): number;
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
  // Served from a copy of the build of its own: a rebuild of dist/ meanwhile changes nothing here.
  const build = await copyBuild(options.root);
  const entry = pathToFileURL(join(build.dir, 'server/entry.mjs')).href;
  const { render } = (await import(entry)) as { render: Render };
  const clientDir = join(build.dir, 'client');
  let handled = 0;

  function rendered(request: Request, peer: string | undefined): Promise<Response | undefined> {
    return render(request, { runtime, peer }, peer);
  }

  // ---- With the front: the requests it hands on, answered as messages (ask.ts) ----

  async function answer(ask: Ask, reply: Reply): Promise<void> {
    handled++;
    const { method, headers: h } = ask;
    if (pageCache && (method === 'GET' || method === 'HEAD')) {
      const key = pageKeyOfRequest(h.host, ask.url, h.cookie, h['accept-language']);
      const asker = { socket: { remoteAddress: ask.peer }, headers: h };
      const page = key === undefined ? undefined : await pageCache.lookup(key, () => clientIp(asker, runtime.trusted));
      if (page) return sendCached(ask, reply, page);
    }
    if (NOT_REQUESTS.has(method)) {
      const { status, text, allow } = METHOD_NOT_ALLOWED;
      return replyText(reply, status, text, { allow });
    }
    const response = await rendered(webRequest(method, ask.url, h, ask.body), ask.peer);
    if (!response) return replyText(reply, 404, 'not found');
    await reply.response(response, method === 'HEAD');
  }

  async function sendCached(ask: Ask, reply: Reply, page: CachedPage): Promise<void> {
    const h = ask.headers;
    const taken = takes(page.etag, page.compressible, h['if-none-match'], h['accept-encoding']);
    if (taken === 304) return reply.whole(304, page.headers304);
    // The first request for an encoding waits for its compression; the variant then goes to the front.
    const sent = (taken && (await pageCache!.variant(page, taken))) || page;
    reply.whole(page.status, sent.headers, ask.method === 'HEAD' ? undefined : sent.body);
  }

  function replyText(reply: Reply, status: number, text: string, extra?: Record<string, string>): void {
    const { headers, body } = textAnswer(text, extra);
    reply.whole(status, headers, body);
  }

  function askFailed(ask: Ask, reply: Reply, err: unknown): void {
    console.error(failureLine(500, ask.url, err));
    if (!reply.headersSent) replyText(reply, 500, 'internal error');
    else reply.cut();
  }

  // ---- Without the front: the public port's own requests (SITE_PAGE_CACHE=0) ----

  const files = pageCache ? undefined : siteFiles(clientDir);

  async function toAstro(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: Buffer | undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      body = await readBody(req, BODY_LIMIT);
      if (res.destroyed) return;
      if (body === undefined) return sendTooLarge(res);
    }
    const request = webRequest(req.method ?? 'GET', req.url ?? '/', req.headers, body);
    const response = await rendered(request, req.socket.remoteAddress);
    if (!response) return sendText(res, 404, 'not found');
    await sendResponse(res, response);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    handled++;
    if (NOT_REQUESTS.has(req.method ?? '')) {
      const { status, text, allow } = METHOD_NOT_ALLOWED;
      return sendText(res, status, text, { allow });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (Number(req.headers['content-length']) > BODY_LIMIT) return sendTooLarge(res);
      return toAstro(req, res);
    }
    files!(req, res, () => toAstro(req, res).catch((err: unknown) => fail(req, res, err)));
  }

  function fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    // One line, the path without its query (failureLine): a query may hold a secret (the code of a
    // password link), and a stack per request floods the log of a busy site.
    console.error(failureLine(500, req.url ?? '', err));
    if (!res.headersSent) sendText(res, 500, 'internal error');
    else res.destroy();
  }

  let server: Server | undefined;
  let port = options.port;
  if (pageCache) {
    const follower = runtime.follower;
    const opening = (): MirrorMessage[] => [
      { type: 'sync', mark: follower?.freshness.mark() ?? 0 },
      { type: 'follow', event: { live: follower?.live ?? false } },
    ];
    const data = { host: options.host, port: options.port, keepAliveTimeout: KEEP_ALIVE_MS, files: clientDir };
    const started = startFront({ ...data, maxBytes: PAGE_CACHE_BYTES }, opening, (ask, post) => {
      const reply = new Reply(ask.id, post);
      answer(ask, reply).catch((err: unknown) => askFailed(ask, reply, err));
      return () => reply.gone();
    });
    front = started;
    // Each change the follower applies goes to the front's copy too, in order with the pages.
    follower?.watch((event) => started.send({ type: 'follow', event }));
    try {
      port = await started.listening;
    } catch (err) {
      await runtime.close();
      build.remove();
      throw err;
    }
  } else {
    const own = createServer((req, res) => {
      try {
        const done = handle(req, res);
        if (done) done.catch((err: unknown) => fail(req, res, err));
      } catch (err) {
        fail(req, res, err);
      }
    });
    own.keepAliveTimeout = KEEP_ALIVE_MS;
    try {
      await new Promise<void>((resolve, reject) => {
        own.once('error', reject);
        own.listen(options.port, options.host, () => {
          own.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      await runtime.close();
      build.remove();
      throw err;
    }
    const address = own.address();
    if (typeof address === 'object' && address) port = address.port;
    server = own;
  }
  let ended: Promise<void> | undefined;
  const url = `http://${listenHost === '0.0.0.0' || listenHost === '[::]' ? '127.0.0.1' : listenHost}:${port}`;
  if (!options.siteUrl) runtime.siteUrl = url;
  return {
    url,
    port,
    server,
    handled: () => handled,
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
        // The front first: it hands the renderer nothing more, and its answers in flight finish (the
        // renderer answers them meanwhile).
        await front?.close(CLOSE_GRACE_MS);
        if (server) await closeServer(server);
        await runtime.close();
        build.remove();
      })();
      return ended;
    },
  };
}

/** Stops taking connections, ends the idle ones, and the rest after the grace. */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections();
  const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
  await closed;
  clearTimeout(grace);
}
