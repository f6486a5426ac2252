// The site's front server (`podium start`): one node:http server with three steps.
// 1. The page cache (pagecache.ts): a public page already rendered for this host, path, query and
//    language (pagekey.ts) is answered from memory — 200 in the encoding asked for, or 304 on a matching
//    ETag — without Astro. Its staleness budget is in docs/site.md ("The page cache").
// 2. Files of the build (client/ of the site's copy of dist/: /_astro/*, /widgets/*, public/*) through sirv, which sends the
//    .br/.gz the build wrote beside them (precompress.ts).
// 3. Everything else to Astro: the @astrojs/node adapter's handler (middleware mode) with
//    `locals.runtime`; src/middleware.ts resolves the host, rewrites custom domains, redirects ?lang=,
//    and stores public pages in the cache. `astro dev` runs the same middleware without this front.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lookup } from 'mrmime';
import sirv from 'sirv';
import type { ChangeFollower } from '../client/index.ts';
import { copyBuild } from './build.ts';
import { encodingOf } from './compress.ts';
import type { SiteRuntime } from './context.ts';
import { notModified } from './etag.ts';
import { type DomainChange, type HostResolver } from './hosts.ts';
import { BODY_LIMIT, clientIp, normalizeHostname } from './net.ts';
import { pageKeyOfRequest } from './pagekey.ts';
import type { CachedPage, Variant } from './pagecache.ts';
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
  server: Server;
  runtime: SiteRuntime;
  hosts: HostResolver;
  /** The platform's change stream, when followed. */
  follower: ChangeFollower | undefined;
  /** An event's custom domain (or what it routes to) changed: forget what was looked up (`podium start`). */
  domainChanged(change: DomainChange): void;
  close(): Promise<void>;
}

/** The adapter's request handler (dist/server/entry.mjs, @astrojs/node in middleware mode). */
type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
  locals: Partial<App.Locals>,
) => Promise<void>;

/** How long a shutdown waits for the answers in flight before it ends their connections. */
const CLOSE_GRACE_MS = 2000;

/** Files named by their content never change: cached for a year. Others (the widgets' loaders keep their URL) 5 minutes. */
const IMMUTABLE = /^\/(?:_astro|widgets\/chunks)\//;

export async function startSite(options: SiteOptions): Promise<Site> {
  const listenHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const runtime = createRuntime({ ...options, siteUrl: options.siteUrl ?? `http://${listenHost}` });
  const pageCache = runtime.pageCache;
  // Served from a copy of the build of its own: a rebuild of dist/ meanwhile changes nothing here.
  const build = await copyBuild(options.root);
  const entry = pathToFileURL(join(build.dir, 'server/entry.mjs')).href;
  const { handler } = (await import(entry)) as { handler: AstroHandler };

  const files = sirv(join(build.dir, 'client'), {
    etag: true,
    brotli: true,
    gzip: true,
    extensions: [],
    setHeaders(res, pathname) {
      res.setHeader(
        'cache-control',
        IMMUTABLE.test(pathname) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      // Widgets are loaded as modules from organizers' pages (cross-origin module scripts need CORS).
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('x-content-type-options', 'nosniff');
      const type = lookup(pathname);
      if (type && /^text\/|javascript|json/.test(type)) res.setHeader('content-type', `${type}; charset=utf-8`);
    },
  });

  function toAstro(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return handler(req, res, () => sendText(res, 404, 'not found'), { runtime });
  }

  function serve(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // The adapter would throw on a body past its limit and the page would answer 400: say what it is.
      if (Number(req.headers['content-length']) > BODY_LIMIT) {
        res.setHeader('connection', 'close');
        return sendText(res, 413, `request body too large (at most ${BODY_LIMIT} bytes)`);
      }
      return toAstro(req, res);
    }
    // sirv takes "br;q=0" for br: it sees the one encoding the site's negotiation chose (encoding.ts).
    const accept = req.headers['accept-encoding'];
    req.headers['accept-encoding'] = encodingOf(accept) ?? '';
    // sirv answers a 304 before it sets its headers: the Vary goes on first, off again for Astro.
    res.setHeader('vary', 'Accept-Encoding');
    files(req, res, () => {
      res.removeHeader('vary');
      if (accept === undefined) delete req.headers['accept-encoding'];
      else req.headers['accept-encoding'] = accept;
      toAstro(req, res).catch((err: unknown) => fail(req, res, err));
    });
  }

  /** One request: synchronous up to the answer on a page-cache hit or 304 (no promise). */
  function handle(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const method = req.method;
    if (pageCache && (method === 'GET' || method === 'HEAD')) {
      const h = req.headers;
      const key = pageKeyOfRequest(h.host, req.url ?? '/', h.cookie, h['accept-language']);
      const hit = key === undefined ? undefined : pageCache.lookup(key, () => clientIp(req, runtime.trusted));
      if (hit instanceof Promise) return hit.then((page) => (page ? sendCached(req, res, page) : serve(req, res)));
      if (hit) return sendCached(req, res, hit);
    }
    return serve(req, res);
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

  function sendText(res: ServerResponse, status: number, text: string): void {
    const body = Buffer.from(text);
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(body.length),
      'cache-control': 'no-store',
    });
    res.end(body);
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
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
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
    async close() {
      // As the API closes (src/platform/app.ts): no new connections, the idle ones end now, and the
      // answers in flight finish — a restart drops no visitor's page. Past a grace every connection
      // ends (a client may hold one open); the platform client closes last, when no render needs it.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await closed;
      clearTimeout(grace);
      await runtime.close();
      build.remove();
    },
  };
}
