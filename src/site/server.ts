// The site's front server: a node:http server in front of Astro's handler (the @astrojs/node adapter in
// middleware mode, built into dist/). It serves files, the theme stylesheet and the on-demand-TLS "ask"
// endpoint itself; resolves the Host (platform's own host, an event's custom domain, or the error page);
// answers pages from the page cache (with 304 on a matching ETag); and hands everything else to Astro
// with `locals.podium` (src/site/context.ts). On a custom domain the event's pages are served at / —
// the front maps /schedule to /{company}/{event}/schedule before Astro routes it.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ChangeFollower, createClient, isPodiumError, type PodiumClient } from '../client/index.ts';
import { isLocale, pickLocale, type Locale } from '../shared/i18n/messages.ts';
import {
  compressibleType,
  compressText,
  encodingOf,
  varyOnEncoding,
  worthCompressing,
  type Encoding,
} from './compress.ts';
import type { RequestContext, SiteRuntime } from './context.ts';
import { etagOf, notModified } from './etag.ts';
import { LANG_COOKIE, parseCookies, serializeCookie } from './grant.ts';
import { HostResolver, type DomainChange, type HostSite } from './hosts.ts';
import { clientIp, hostOf, isHttps, normalizeHostname, trustList } from './net.ts';
import { PageCache, type CachedPage, type Variant } from './pagecache.ts';
import { variantsOf } from './precompress.ts';
import { themeStylesheet } from './theme.ts';

export interface SiteOptions {
  /** The repository root: dist/ (the Astro build) and public/. */
  root: string;
  /** The platform API the site reads. */
  apiUrl: string;
  /** The API as browsers reach it (widgets, CSP). */
  publicApiUrl: string;
  /** The public address of the platform's own site (default: the address it listens on). */
  siteUrl?: string;
  /** More host names of the platform's own site. */
  siteHosts: string[];
  host: string;
  port: number;
  /** TRUST_PROXY: proxies whose X-Forwarded-For / -Proto are believed. */
  trustProxy?: string;
  /**
   * The platform's SITE_API_KEY: the site's calls carry it with the visitor's address, so the platform
   * counts its per-client limits per visitor rather than for the whole site.
   */
  siteKey?: string;
  /** false: render every page (benchmarks). */
  pageCache: boolean;
  /** Milliseconds a cached page is served before its sources are re-checked. */
  pageFreshMs?: number;
  /** Milliseconds a platform answer is reused before asking again (default 1000), while the change stream is not live. */
  dataFreshMs?: number;
  /**
   * Follow the platform's change stream (change.subscribe; default true): while it is live, pages and
   * answers are kept until a change of their scope, and the timers above apply only when it is not.
   */
  followChanges?: boolean;
  now?: () => number;
  /** A client to use instead of one made from apiUrl (tests). */
  client?: PodiumClient;
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

/** The part of Astro's App the front uses (dist/server/entry.mjs exports it: src/site/astro-entry.ts). */
interface AstroApp {
  render(
    request: Request,
    options: { locals: { podium: RequestContext }; addCookieHeader: boolean },
  ): Promise<Response>;
}

/** Largest request body the site reads (its only form is the access code). */
const BODY_LIMIT = 16 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        req.destroy();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  woff: 'font/woff',
  txt: 'text/plain; charset=utf-8',
  webmanifest: 'application/manifest+json',
};

const FILE_PATH = /^\/(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.([a-z0-9]{1,12})$/;

interface StaticFile {
  body: Buffer | undefined;
  headers: Record<string, string>;
  etag: string;
  checked: number;
  mtimeMs: number;
  /** br and gzip variants of a text file (from the build's .br/.gz beside it, else compressed once here). */
  variants?: Partial<Record<Encoding, Variant>>;
}

/** Paths a custom domain serves as they are (not under the event). */
const HOST_LEVEL = new Set(['/robots.txt', '/sitemap.xml']);

export async function startSite(options: SiteOptions): Promise<Site> {
  const trusted = trustList(options.trustProxy);
  // Followed only when something here keeps platform answers: the page cache, or a client of our own.
  const follows = options.followChanges !== false && (options.pageCache || !options.client);
  const follower = follows ? new ChangeFollower({ baseUrl: options.apiUrl }) : undefined;
  const client =
    options.client ??
    createClient({
      baseUrl: options.apiUrl,
      siteKey: options.siteKey,
      dataFreshMs: options.dataFreshMs,
      follow: follower,
    });
  // A page's re-check reads the platform for the visitor whose request found the page stale.
  const pageCache = options.pageCache
    ? new PageCache({
        freshMs: options.pageFreshMs,
        fingerprintOf: (path, visitor) => client.fingerprintOf(path, visitor),
        follow: follower,
      })
    : undefined;
  const listenHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const siteUrl = new URL(options.siteUrl ?? `http://${listenHost}`);
  const own = [siteUrl.hostname.replace(/^\[|\]$/g, ''), ...options.siteHosts];
  const hosts = new HostResolver(client, own);
  const runtime: SiteRuntime = {
    client,
    publicApiUrl: options.publicApiUrl,
    siteUrl: siteUrl.origin,
    pageCache,
    now: options.now ?? Date.now,
  };

  const entry = pathToFileURL(join(options.root, 'dist/server/entry.mjs')).href;
  const { app } = (await import(entry)) as { app: AstroApp };

  /** Renders with Astro (a plain Request: no AbortSignal) and writes the answer. */
  async function renderWithAstro(req: IncomingMessage, res: ServerResponse, ctx: RequestContext, path: string) {
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i];
      if (name.charCodeAt(0) !== 58 /* : */) headers.append(name, req.rawHeaders[i + 1]);
    }
    let body: Buffer | undefined;
    if (method === 'POST') {
      body = await readBody(req);
      if (body === undefined) return sendText(res, 413, 'request body too large');
    }
    const request = new Request(
      `${ctx.https ? 'https' : 'http'}://${ctx.hostname.includes(':') ? `[${ctx.hostname}]` : ctx.hostname}${path}`,
      {
        method,
        headers,
        body: body?.toString('utf8'),
      },
    );
    const response = await app.render(request, { locals: { podium: ctx }, addCookieHeader: true });
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    // The middleware hands over the bytes it already has (public pages); otherwise read the body.
    const bytes =
      ctx.rendered ??
      (response.body && response.status !== 304 ? Buffer.from(await response.arrayBuffer()) : undefined);
    if (bytes && response.status !== 304) out['content-length'] = String(bytes.length);
    let sent = bytes;
    const encoding = encodingOf(req.headers['accept-encoding']);
    const type = out['content-type'];
    if (
      bytes &&
      encoding &&
      response.status !== 304 &&
      out['content-encoding'] === undefined &&
      worthCompressing(typeof type === 'string' ? type : undefined, bytes.length)
    ) {
      // A stored page is compressed through the page cache (once, kept for its hits); any other answer
      // (private, no-store, an error page) is compressed for this request alone.
      const made = ctx.page && pageCache ? await pageCache.variant(ctx.page, encoding) : undefined;
      sent = made?.body ?? (await compressText(encoding, bytes).catch(() => undefined)) ?? bytes;
      if (sent !== bytes) {
        out['content-encoding'] = encoding;
        out['content-length'] = String(sent.length);
      }
    }
    if (bytes) out.vary = varyOnEncoding(typeof out.vary === 'string' ? out.vary : undefined);
    res.writeHead(response.status, out);
    res.end(method === 'HEAD' || response.status === 304 ? undefined : sent);
  }

  const files = new Map<string, StaticFile>();
  const publicDir = join(options.root, 'public');
  const astroDir = join(options.root, 'dist/client');

  /**
   * A file of public/ or dist/client/_astro, from memory: re-checked on disk every 2 s, except the files
   * named by their content (the build's assets, the widgets' chunks), which never change once found.
   */
  async function fileOf(pathname: string): Promise<StaticFile | undefined> {
    const m = FILE_PATH.exec(pathname);
    if (!m || pathname.includes('..')) return undefined;
    const dir = pathname.startsWith('/_astro/') ? astroDir : publicDir;
    const immutable = dir === astroDir || pathname.startsWith('/widgets/chunks/');
    const known = files.get(pathname);
    const now = Date.now();
    if (known && ((immutable && known.body) || now - known.checked < 2000)) return known.body ? known : undefined;
    const abs = normalize(join(dir, pathname));
    if (!abs.startsWith(dir)) return undefined;
    let st;
    try {
      st = await stat(abs);
      if (!st.isFile()) throw new Error('not a file');
    } catch {
      if (files.size >= 5000) files.clear(); // misses of made-up paths must not grow without bound
      files.set(pathname, { body: undefined, headers: {}, etag: '', checked: now, mtimeMs: 0 });
      return undefined;
    }
    if (known?.body && known.mtimeMs === st.mtimeMs) {
      known.checked = now;
      return known;
    }
    const body = await readFile(abs);
    const etag = etagOf(body);
    const type = TYPES[m[1]] ?? 'application/octet-stream';
    // Text files of any size: a file is compressed once (at build, else here once per version), and a
    // variant is kept only where it is smaller than the file (the widgets' loaders are a few hundred bytes).
    const compressible = compressibleType(type);
    const headers: Record<string, string> = {
      'content-type': type,
      'content-length': String(body.length),
      etag,
      // The widgets' loaders (/widgets/podium.js) keep their URL and import the chunks of the current build:
      // a short max-age, so a new build reaches pages within minutes (and the ETag makes the re-check a 304).
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      // Widgets are loaded as modules from organizers' pages (cross-origin module scripts need CORS), their
      // chunks by the loader on that page.
      'access-control-allow-origin': '*',
      // One ETag for every encoding, as the API does: the content is the same, so a 304 is right whichever
      // encoding the client holds (the site answers no Range requests, where the two would differ).
      ...(compressible ? { vary: 'Accept-Encoding' } : {}),
    };
    const variants = compressible ? await variantsOf(abs, body, st.mtimeMs, headers) : {};
    // A file that no encoding makes smaller is the same for every client.
    if (Object.keys(variants).length === 0) delete headers.vary;
    const file: StaticFile = {
      body,
      etag,
      checked: now,
      mtimeMs: st.mtimeMs,
      headers,
      variants: headers.vary ? variants : undefined,
    };
    files.set(pathname, file);
    return file;
  }

  /** Loads in progress: concurrent first requests for a file share one read (and one compression). */
  const loading = new Map<string, Promise<StaticFile | undefined>>();
  function loadFile(pathname: string): Promise<StaticFile | undefined> {
    let load = loading.get(pathname);
    if (!load) {
      load = fileOf(pathname).finally(() => loading.delete(pathname));
      loading.set(pathname, load);
    }
    return load;
  }

  function sendBytes(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: Buffer,
    etag: string,
  ): void {
    if (etag && status === 200 && notModified(req.headers['if-none-match'], etag)) {
      res.writeHead(304, {
        etag,
        'cache-control': headers['cache-control'] ?? 'no-cache',
        ...(headers.vary ? { vary: headers.vary } : {}),
      });
      res.end();
      return;
    }
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
    const body = Buffer.from(text);
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(body.length),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...extra,
    });
    res.end(body);
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

  /**
   * A host lookup that failed: the visitor over their allowance at the platform gets its 429, too many
   * lookups at once a 503 to retry, anything else the platform being unreachable.
   */
  function lookupFailed(res: ServerResponse, err: unknown, text: string): void {
    const retry = { 'retry-after': String((isPodiumError(err) && err.retryAfter) || 5), vary: 'Host' };
    if (isPodiumError(err) && err.status === 429)
      return sendText(res, 429, 'too many requests, try again later', retry);
    if (isPodiumError(err) && err.status === 503) return sendText(res, 503, 'busy, try again in a moment', retry);
    return sendText(res, 503, text, retry);
  }

  /**
   * GET /_podium/domains/ask?domain=… (Caddy's on_demand_tls ask): 200 only for configured domains. A
   * lookup spends the allowance of the ask's caller (Caddy), never the visitors'.
   */
  async function ask(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
    const domain = normalizeHostname(url.searchParams.get('domain') ?? '');
    if (!domain) return sendText(res, 400, 'domain must be a host name');
    let site: HostSite;
    try {
      site = await hosts.resolve(domain, clientIp(req, trusted));
    } catch (err) {
      return lookupFailed(res, err, 'the platform is not reachable');
    }
    if (site.kind === 'unknown') return sendText(res, 404, 'not a configured domain');
    return sendText(res, 200, 'ok');
  }

  const hostNames = new Map<string, string | undefined>();
  const acceptLocales = new Map<string, Locale>();

  /** The validated host name of a Host header (remembered: a server sees few distinct ones). */
  function hostnameOf(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    let name = hostNames.get(header);
    if (name === undefined && !hostNames.has(header)) {
      name = hostOf(header);
      if (hostNames.size > 10_000) hostNames.clear();
      hostNames.set(header, name);
    }
    return name;
  }

  function acceptLocaleOf(header: string | undefined): Locale {
    if (!header) return 'en';
    let locale = acceptLocales.get(header);
    if (locale === undefined) {
      locale = pickLocale([header]);
      if (acceptLocales.size > 10_000) acceptLocales.clear();
      acceptLocales.set(header, locale);
    }
    return locale;
  }

  function fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    // The path only: a query may hold a secret (the code of a password link).
    console.error('site: could not answer', (req.url ?? '').split('?')[0], err);
    if (!res.headersSent) sendText(res, 500, 'internal error');
    else res.destroy();
  }

  /**
   * One request. Synchronous up to the answer when the host and the page are known (a page-cache hit or
   * a 304 costs no promise); platform lookups and renders go async.
   */
  /**
   * Requests already mapped to a page-cache key, by what decides the key (Host, URL, cookies,
   * Accept-Language): a repeated request is answered from the page cache before any parsing.
   */
  const fastKeys = new Map<string, string>();
  const fastKeyOf = (req: IncomingMessage) =>
    `${req.headers.host}\n${req.url}\n${req.headers.cookie ?? ''}\n${req.headers['accept-language'] ?? ''}`;

  function handle(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const method = req.method ?? 'GET';
    if (pageCache && (method === 'GET' || method === 'HEAD')) {
      const key = fastKeys.get(fastKeyOf(req));
      if (key !== undefined) {
        const hit = pageCache.lookup(key, () => clientIp(req, trusted));
        if (hit !== undefined && !(hit instanceof Promise)) return sendCached(req, res, hit);
        // A miss or a page to re-check: the full path below (which re-checks or renders).
        if (hit instanceof Promise)
          return hit.then((h) => (h ? sendCached(req, res, h) : handleFully(req, res, method)));
      }
    }
    return handleFully(req, res, method);
  }

  function handleFully(req: IncomingMessage, res: ServerResponse, method: string): void | Promise<void> {
    const raw = req.url ?? '/';
    if (raw.charCodeAt(0) !== 47 /* / */) return sendText(res, 400, 'bad request');
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    const search = q < 0 ? '' : raw.slice(q);
    if (pathname.includes('%')) {
      try {
        decodeURIComponent(pathname);
      } catch {
        return sendText(res, 400, 'bad request');
      }
    }

    if (pathname.startsWith('/_podium/')) {
      const url = new URL(raw, 'http://site.invalid');
      if (pathname === '/_podium/domains/ask') return ask(req, url, res);
      if (pathname === '/_podium/health') return sendText(res, 200, 'ok');
      if (pathname === '/_podium/theme.css') {
        const body = Buffer.from(themeStylesheet(url.searchParams));
        const etag = etagOf(body);
        return sendBytes(
          req,
          res,
          200,
          {
            'content-type': 'text/css; charset=utf-8',
            'content-length': String(body.length),
            'cache-control': 'public, max-age=31536000, immutable',
            'x-content-type-options': 'nosniff',
            etag,
          },
          body,
          etag,
        );
      }
    }
    if (method === 'GET' || method === 'HEAD') {
      if (
        FILE_PATH.test(pathname) &&
        !pathname.endsWith('.ics') &&
        !pathname.endsWith('.xml') &&
        pathname !== '/robots.txt'
      ) {
        return loadFile(pathname).then((file) => {
          if (file?.body) {
            const encoding = file.variants ? encodingOf(req.headers['accept-encoding']) : undefined;
            const sent = encoding ? file.variants?.[encoding] : undefined;
            return sendBytes(req, res, 200, sent?.headers ?? file.headers, sent?.body ?? file.body, file.etag);
          }
          return route(req, res, method, pathname, search);
        });
      }
    } else if (method !== 'POST') {
      return sendText(res, 405, 'method not allowed', { allow: 'GET, HEAD, POST' });
    }
    return route(req, res, method, pathname, search);
  }

  function route(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    pathname: string,
    search: string,
  ): void | Promise<void> {
    const hostname = hostnameOf(req.headers.host);
    if (!hostname) return sendText(res, 400, 'bad request: missing or malformed Host', { vary: 'Host' });
    const visitor = clientIp(req, trusted);
    let site: HostSite | Promise<HostSite>;
    try {
      site = hosts.resolve(hostname, visitor);
    } catch (err) {
      site = Promise.reject(err);
    }
    if (site instanceof Promise) {
      return site.then(
        (s) => page(req, res, method, pathname, search, hostname, s, visitor),
        (err: unknown) => lookupFailed(res, err, 'The event platform is not reachable. Try again in a moment.'),
      );
    }
    return page(req, res, method, pathname, search, hostname, site, visitor);
  }

  function page(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    pathname: string,
    search: string,
    hostname: string,
    site: HostSite,
    visitor: string,
  ): void | Promise<void> {
    const cookieHeader = req.headers.cookie;
    const cookies = cookieHeader ? parseCookies(cookieHeader) : new Map<string, string>();
    const secure = isHttps(req, trusted);

    // The language switcher: ?lang=pt stores the choice and comes back to the same page without it.
    if (method === 'GET' && search.includes('lang=')) {
      const params = new URLSearchParams(search);
      const lang = params.get('lang');
      if (lang !== null) {
        params.delete('lang');
        const rest = params.toString();
        // Same-site path only: `//evil.com/?lang=en` (or `/\evil.com`) must not become a redirect elsewhere.
        const samePath = `/${pathname.replace(/^[/\\\s]+/, '')}`;
        res.writeHead(303, {
          location: `${samePath}${rest ? `?${rest}` : ''}`,
          'set-cookie': serializeCookie(LANG_COOKIE, isLocale(lang) ? lang : '', {
            path: '/',
            secure,
            expires: isLocale(lang) ? Math.floor(Date.now() / 1000) + 365 * 86400 : 0,
            httpOnly: false,
          }),
          'cache-control': 'no-store',
          vary: 'Host',
        });
        res.end();
        return;
      }
    }

    let internal = pathname;
    if (site.kind === 'unknown') internal = '/podium-unknown-domain';
    else if (site.kind === 'event' && !HOST_LEVEL.has(pathname)) {
      internal = `/${encodeURIComponent(site.namespace)}/${encodeURIComponent(site.nickname)}${pathname === '/' ? '' : pathname}`;
    }
    const chosenCookie = cookies.get(LANG_COOKIE);
    const chosenLocale: Locale | undefined = isLocale(chosenCookie) ? chosenCookie : undefined;
    const acceptLocale = acceptLocaleOf(req.headers['accept-language']);
    // Public pages are the same over http and https (only cookies differ, and those pages set none).
    const cacheKey =
      pageCache && site.kind !== 'unknown' && (method === 'GET' || method === 'HEAD')
        ? `${site.kind === 'event' ? site.cname : ''}|${internal}${search}|${chosenLocale ?? ''}|${acceptLocale}`
        : undefined;
    if (cacheKey) {
      if (fastKeys.size >= 20_000) fastKeys.clear();
      fastKeys.set(fastKeyOf(req), cacheKey);
    }
    const render = () => {
      const ctx: RequestContext = {
        runtime,
        site: site.kind === 'event' ? site : { kind: 'platform' },
        unknownHost: site.kind === 'unknown',
        hostname,
        https: secure,
        clientIp: visitor,
        cookies,
        chosenLocale,
        acceptLocale,
        publicPath: pathname,
        // Every platform call for this page names the visitor (the platform's per-client limits).
        call: { clientIp: visitor, deps: cacheKey ? [] : undefined },
        pageMark: pageCache?.mark() ?? 0,
        cacheKey,
        cacheable: false,
      };
      return renderWithAstro(req, res, ctx, `${internal}${search}`);
    };
    if (cacheKey && pageCache) {
      const hit = pageCache.lookup(cacheKey, () => visitor);
      if (hit === undefined) return render();
      if (hit instanceof Promise) return hit.then((h) => (h ? sendCached(req, res, h) : render()));
      return sendCached(req, res, hit);
    }
    return render();
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
    hosts,
    follower,
    domainChanged(change) {
      hosts.forget(change);
      // Requests mapped straight to a cached page skip the Host lookup: map them again.
      fastKeys.clear();
      // The new domain is looked up now, as the site's own call: Caddy's first ask for it (before any
      // visitor can come over https) finds it known even while a flood of asks spends Caddy's allowance.
      const cname = change.cname ? normalizeHostname(change.cname) : undefined;
      if (cname) Promise.resolve(hosts.resolve(cname)).catch(() => {});
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      if (!options.client) await client.close();
      await follower?.close();
    },
  };
}
