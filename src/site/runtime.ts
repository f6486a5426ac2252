// The site's per-process services (SiteRuntime): the platform client, the change stream it follows,
// the host resolver, the page cache and the proxies it trusts. `podium start` makes one in its front
// server (server.ts) and hands it to Astro as `locals.runtime`; under `astro dev` (npm run dev) there is
// no front, so the middleware makes one from the environment (runtimeFromEnv), once per process.

import { ChangeFollower, createClient, type PodiumClient } from '../client/index.ts';
import type { SiteRuntime } from './context.ts';
import { HostResolver } from './hosts.ts';
import { trustList } from './net.ts';
import { PageCache, type PageCacheOptions } from './pagecache.ts';
import { PlatformWatch } from './report.ts';
import { appSchemeProblem } from '../shared/app-scheme.ts';

export interface RuntimeOptions {
  /** The platform API the site reads. */
  apiUrl: string;
  /** The API as browsers reach it (widgets, CSP). */
  publicApiUrl: string;
  /** The public origin of the platform's own site. */
  siteUrl: string;
  /** More host names of the platform's own site. */
  siteHosts: string[];
  /** TRUST_PROXY: proxies whose X-Forwarded-For / -Proto are believed. */
  trustProxy?: string;
  /** The platform's SITE_API_KEY: the site's calls name their visitor with it. */
  siteKey?: string;
  /** false: render every page (benchmarks, `astro dev`). */
  pageCache: boolean;
  /** Milliseconds a cached page is served before its sources are re-checked. */
  pageFreshMs?: number;
  /** Milliseconds a platform answer is reused while the change stream is not live (default 1000). */
  dataFreshMs?: number;
  /** Follow the platform's change stream (default true). */
  followChanges?: boolean;
  now?: () => number;
  /** A client to use instead of one made from apiUrl (tests). */
  client?: PodiumClient;
  /** APP_SCHEME (validated by the caller): where /appURL.php sends the app's links; none: 404. */
  appScheme?: string;
  /** Told what the page cache holds as fresh (the front thread's copy, server.ts). */
  mirror?: PageCacheOptions['mirror'];
}

export function createRuntime(options: RuntimeOptions): SiteRuntime {
  // Followed only when something here keeps platform answers: the page cache, or a client of our own.
  const follows = options.followChanges !== false && (options.pageCache || !options.client);
  const follower = follows ? new ChangeFollower({ baseUrl: options.apiUrl }) : undefined;
  // The platform going down (and coming back) is logged once, not with every page it fails.
  const watch = options.client ? undefined : new PlatformWatch(options.apiUrl);
  const client =
    options.client ??
    createClient({
      baseUrl: options.apiUrl,
      siteKey: options.siteKey,
      dataFreshMs: options.dataFreshMs,
      follow: follower,
      reachability: watch,
    });
  // A page's re-check reads the platform for the visitor whose request found the page stale.
  const pageCache = options.pageCache
    ? new PageCache({
        freshMs: options.pageFreshMs,
        fingerprintOf: (path, visitor) => client.fingerprintOf(path, visitor),
        follow: follower,
        mirror: options.mirror,
      })
    : undefined;
  const siteUrl = new URL(options.siteUrl);
  const own = [siteUrl.hostname.replace(/^\[|\]$/g, ''), ...options.siteHosts];
  return {
    client,
    follower,
    hosts: new HostResolver(client, own),
    trusted: trustList(options.trustProxy),
    publicApiUrl: options.publicApiUrl,
    siteUrl: siteUrl.origin,
    pageCache,
    now: options.now ?? Date.now,
    appScheme: options.appScheme,
    onPlatformBack(listener) {
      watch?.onBack(listener);
    },
    async close() {
      if (!options.client) await client.close();
      await follower?.close();
    },
  };
}

const DEV_RUNTIME = Symbol.for('podium.site.devRuntime');

/**
 * The runtime of `astro dev`, from the same settings as `podium start` (PODIUM_API_URL, PUBLIC_API_URL,
 * SITE_URL, SITE_HOSTS, TRUST_PROXY, SITE_API_KEY, APP_SCHEME), made once per process: hot reloads re-run the
 * modules, and must not open a new client and change stream each time. No page cache (edits show at once).
 */
export function runtimeFromEnv(env: Record<string, string | undefined> = process.env): SiteRuntime {
  const holder = globalThis as { [DEV_RUNTIME]?: SiteRuntime };
  if (holder[DEV_RUNTIME]) return holder[DEV_RUNTIME];
  const apiUrl = env.PODIUM_API_URL;
  if (!apiUrl) throw new Error('PODIUM_API_URL is not set: start the site with `npm run dev` or `podium start`');
  const appScheme = env.APP_SCHEME || undefined;
  const problem = appScheme === undefined ? undefined : appSchemeProblem(appScheme);
  if (problem) throw new Error(`APP_SCHEME ${problem}`);
  holder[DEV_RUNTIME] = createRuntime({
    apiUrl,
    publicApiUrl: env.PUBLIC_API_URL ?? apiUrl,
    siteUrl: env.SITE_URL ?? 'http://localhost:4321',
    siteHosts: (env.SITE_HOSTS ?? 'localhost,127.0.0.1')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    // A bad value stops here in one line, as at podium start (trustList: src/net/trust-proxy.ts).
    trustProxy: env.TRUST_PROXY,
    siteKey: env.SITE_API_KEY,
    pageCache: false,
    appScheme,
  });
  return holder[DEV_RUNTIME];
}
