// What a page knows of its request, as `Astro.locals.podium` (set by src/middleware.ts through
// src/site/route.ts): the site's services (`locals.runtime`, from the front server or, under `astro
// dev`, from the environment), the resolved host, the visitor, and where the page records the platform
// answers it was built from (for the page cache).

import type { CallContext, ChangeFollower, PodiumClient } from '../client/index.ts';
import type { Locale } from '../shared/i18n/messages.ts';
import type { CnameSite, HostResolver } from './hosts.ts';
import type { PageCache } from './pagecache.ts';

/** Per-process settings and services of the site. */
export interface SiteRuntime {
  client: PodiumClient;
  /** The platform's change stream, when followed. */
  follower: ChangeFollower | undefined;
  /** Which site a Host asks for. */
  hosts: HostResolver;
  /** TRUST_PROXY: whether an address is a proxy whose X-Forwarded-* headers are believed. */
  trusted: (address: string) => boolean;
  /** The platform API's origin as browsers reach it (CSP connect-src, the registration widget). */
  publicApiUrl: string;
  /** The platform's own site, e.g. https://events.example.com (canonical URLs on the platform's host). */
  siteUrl: string;
  pageCache: PageCache | undefined;
  /** SITE_DIRECTORY: the companies (namespaces) the platform's home lists; none: the home introduces Podium. */
  directory?: readonly string[];
  /** Milliseconds since epoch (tests may fix the clock). */
  now: () => number;
  /** APP_SCHEME: the mobile app's URL scheme /appURL.php redirects to (spec §4.11); none: that page is 404. */
  appScheme?: string;
  /** `listener` runs each time the platform answers again after the site found it unreachable. */
  onPlatformBack(listener: () => void): void;
  close(): Promise<void>;
}

export interface RequestContext {
  runtime: SiteRuntime;
  /** The platform's own site, or one event's site on its custom domain. */
  site: { kind: 'platform' } | CnameSite;
  /** The Host is neither the platform's nor a configured custom domain: only the error page is shown. */
  unknownHost: boolean;
  /** The request's host name (validated). */
  hostname: string;
  https: boolean;
  clientIp: string;
  cookies: Map<string, string>;
  /** The language chosen with the switcher (cookie), if any. */
  chosenLocale: Locale | undefined;
  /** The best supported language of Accept-Language. */
  acceptLocale: Locale;
  /** The path the visitor asked for (on a custom domain, without the /{company}/{event} the page sees). */
  publicPath: string;
  /** Platform calls made for this page (forwarding the visitor's address; recording what was read when pages are cached). */
  call: CallContext;
  /** The page cache's mark when this request began (PageCache.mark): a change after it leaves the page stale. */
  pageMark: number;
  /** The page cache key, when this request may be stored. */
  cacheKey: string | undefined;
  /** Set by a page whose answer is public and may be stored and shared. */
  cacheable: boolean;
  /** The path of an attendee cookie the platform refused: the answer deletes it (attendee.ts). */
  clearAttendee?: string;
  /** Precomputed fragments this page placed markers for (fragments.ts). */
  fragments?: Buffer[];
  /** What made the page fail: the middleware then renders the error page (500.astro) with it. */
  failure?: unknown;
}
