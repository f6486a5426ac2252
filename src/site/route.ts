// Which page a request is for, before Astro routes it (called by src/middleware.ts): the Host resolved
// to the platform's own site, an event's custom domain or nothing; the language switcher's redirect; and
// the path the page has in src/pages — on a custom domain /schedule is /{company}/{event}/schedule, on an
// unknown host the error page — which the middleware reaches with `context.rewrite`.

import type { APIContext } from 'astro';
import { isPodiumError } from '../client/index.ts';
import { isLocale } from '../shared/i18n/messages.ts';
import type { RequestContext, SiteRuntime } from './context.ts';
import { LANG_COOKIE, parseCookies, serializeCookie } from './grant.ts';
import { ATTENDEE_COOKIE } from './attendee.ts';
import type { HostSite } from './hosts.ts';
import { METHOD_NOT_ALLOWED } from './astro-http.ts';
import { clientIp, isHttps, type Asker } from './net.ts';
import { acceptLocaleOf, chosenLocaleOf, hostnameOf, pageKey } from './pagekey.ts';

/** Paths a custom domain serves as they are (not under the event). */
const HOST_LEVEL = new Set(['/robots.txt', '/sitemap.xml', '/appURL.php']);

/** A plain-text answer of the site itself (errors, the ask endpoint): one line, never stored. */
export function textAnswer(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...extra,
    },
  });
}

/** The request's socket address and proxy headers, as net.ts reads them. */
function askerOf(context: APIContext): Asker {
  const h = context.request.headers;
  return {
    // The visitor's socket address as the server names it (the front thread's request carries it, ask.ts).
    socket: { remoteAddress: context.locals.peer ?? context.clientAddress },
    headers: {
      'x-forwarded-for': h.get('x-forwarded-for') ?? undefined,
      'x-forwarded-proto': h.get('x-forwarded-proto') ?? undefined,
    },
  };
}

/** The visitor's address (X-Forwarded-For believed from TRUST_PROXY addresses only). */
export function visitorOf(context: APIContext, runtime: SiteRuntime): string {
  return clientIp(askerOf(context), runtime.trusted);
}

/**
 * A host lookup that failed: the visitor over their allowance at the platform gets its 429, too many
 * lookups at once a 503 to retry, anything else the platform being unreachable.
 */
export function lookupFailed(err: unknown, text: string): Response {
  const retry = { 'retry-after': String((isPodiumError(err) && err.retryAfter) || 5), vary: 'Host' };
  if (isPodiumError(err) && err.status === 429) return textAnswer(429, 'too many requests, try again later', retry);
  if (isPodiumError(err) && err.status === 503) return textAnswer(503, 'busy, try again in a moment', retry);
  return textAnswer(503, text, retry);
}

/** The page's context, and the path to render when it is not the one asked for. */
export interface Routed {
  ctx: RequestContext;
  rewrite: string | undefined;
}

export async function routeRequest(context: APIContext, runtime: SiteRuntime): Promise<Response | Routed> {
  const { request, url } = context;
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    const { status, text, allow } = METHOD_NOT_ALLOWED;
    return textAnswer(status, text, { allow });
  }
  const hostname = hostnameOf(request.headers.get('host'));
  if (!hostname) return textAnswer(400, 'bad request: missing or malformed Host', { vary: 'Host' });
  const asker = askerOf(context);
  const visitor = clientIp(asker, runtime.trusted);
  let site: HostSite;
  try {
    site = await runtime.hosts.resolve(hostname, visitor);
  } catch (err) {
    return lookupFailed(err, 'The event platform is not reachable. Try again in a moment.');
  }
  const secure = isHttps(asker, runtime.trusted);
  const { pathname, search } = url;

  // The language switcher: ?lang=pt stores the choice and comes back to the same page without it.
  const lang = method === 'GET' ? url.searchParams.get('lang') : null;
  if (lang !== null) {
    const params = new URLSearchParams(search);
    params.delete('lang');
    const rest = params.toString();
    // Same-site path only: `//evil.com/?lang=en` (or `/\evil.com`) must not become a redirect elsewhere.
    const samePath = `/${pathname.replace(/^[/\\\s]+/, '')}`;
    return new Response(null, {
      status: 303,
      headers: {
        location: `${samePath}${rest ? `?${rest}` : ''}`,
        'set-cookie': serializeCookie(LANG_COOKIE, isLocale(lang) ? lang : '', {
          path: '/',
          secure,
          expires: isLocale(lang) ? Math.floor(runtime.now() / 1000) + 365 * 86400 : 0,
          httpOnly: false,
        }),
        'cache-control': 'no-store',
        vary: 'Host',
      },
    });
  }

  let internal = pathname;
  if (site.kind === 'unknown') internal = '/podium-unknown-domain';
  else if (site.kind === 'event' && !HOST_LEVEL.has(pathname)) {
    internal = `/${encodeURIComponent(site.namespace)}/${encodeURIComponent(site.nickname)}${pathname === '/' ? '' : pathname}`;
  }
  const cookies = parseCookies(request.headers.get('cookie') ?? undefined);
  const chosenLocale = chosenLocaleOf(cookies);
  const acceptLocale = acceptLocaleOf(request.headers.get('accept-language'));
  // A signed-in attendee's requests are theirs alone: no page-cache key (pagekey.ts).
  const cacheKey =
    runtime.pageCache &&
    site.kind !== 'unknown' &&
    (method === 'GET' || method === 'HEAD') &&
    !cookies.has(ATTENDEE_COOKIE)
      ? pageKey(hostname, `${pathname}${search}`, chosenLocale, acceptLocale)
      : undefined;
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
    pageMark: runtime.pageCache?.mark() ?? 0,
    cacheKey,
    cacheable: false,
  };
  return { ctx, rewrite: internal === pathname ? undefined : `${internal}${search}` };
}
