// Astro middleware: every request of the site, in `podium start` and `astro dev` alike.
// - Routing (src/site/route.ts): the Host resolved (the platform's site, an event's custom domain, or
//   the unknown-domain page), ?lang= redirects, and `context.rewrite` to the page's own path — which
//   runs this middleware again for that path, with `locals.podium` already set.
// - Answers: every one gets the security headers (CSP without inline code) and Vary; a public page (the
//   page set `locals.podium.cacheable`) gets an ETag and `Cache-Control: public, …`, is stored in the page
//   cache (when the front server keeps one), and a matching If-None-Match is answered 304. Anything else
//   is `private, no-store` unless the route set its own Cache-Control. Text answers go out compressed by
//   Accept-Encoding: a stored page through the variants the cache keeps, anything else for its request.

import { defineMiddleware } from 'astro:middleware';
import type { APIContext } from 'astro';
import { compressText, encodingOf, worthCompressing, type Encoding } from './site/compress.ts';
import { etagOf, notModified } from './site/etag.ts';
import { CAMERA_PERMISSIONS_POLICY, securityHeaders } from './site/csp.ts';
import { spliceFragments } from './site/fragments.ts';
import { routeRequest } from './site/route.ts';
import { ATTENDEE_COOKIE, attendeeCookieCleared } from './site/attendee.ts';
import { runtimeFromEnv } from './site/runtime.ts';
import { failureLine, failureStatus } from './site/report.ts';
import { isUnreachable } from './client/index.ts';

export const PUBLIC_CACHE = 'public, max-age=0, must-revalidate';

export const onRequest = defineMiddleware(async (context, next) => {
  const locals = context.locals;
  // `podium start` passes the runtime in; `astro dev` has no front server, so it is made here.
  locals.runtime ??= runtimeFromEnv();
  // The site's own addresses (src/site/podium-endpoint.ts) answer whatever the Host.
  if (context.url.pathname.startsWith('/_podium/')) return next();
  if (!locals.podium) {
    const routed = await routeRequest(context, locals.runtime);
    if (routed instanceof Response) return routed;
    locals.podium = routed.ctx;
    if (routed.rewrite) return context.rewrite(routed.rewrite);
  }
  // The error page's own render (below): a failure there is Astro's to report.
  if (locals.podium.failure !== undefined) return finish(context, await next());
  let response: Response;
  try {
    response = await next();
  } catch (err) {
    // Astro would log the error's whole stack for every request, and a platform that is down fails
    // every page: the client's PlatformWatch (site/report.ts) says that once, anything else is one line
    // here. The visitor gets the error page all the same (failureStatus: 503 with Retry-After when the
    // platform could not be reached), rendered through this middleware again.
    locals.podium.failure = err;
    const page = await context.rewrite('/500');
    if (!isUnreachable(err)) console.error(failureLine(page.status, context.url.pathname, err));
    return page;
  }
  return finish(context, response);
});

/** The rendered answer with its headers, its ETag and 304, stored when public, compressed. */
async function finish(context: APIContext, response: Response): Promise<Response> {
  const ctx = context.locals.podium;
  const request = context.request;
  const headers = new Headers(response.headers);
  // Astro's length is of the rendered page (not streamed, it sets one): the body sent here may differ
  // (fragments spliced in, compressed), so each answer below states its own.
  headers.delete('content-length');
  const type = headers.get('content-type') ?? '';
  if (type.startsWith('text/html')) {
    headers.set('content-type', 'text/html; charset=utf-8');
    for (const [k, v] of securityHeadersOf(ctx.runtime.publicApiUrl)) {
      // A page may send less Referer than the default (/podium-password carries a code in its URL).
      if (k === 'referrer-policy' && headers.get(k) === 'no-referrer') continue;
      // The check-in page may use the camera (its own origin only); no page may ask for more.
      if (k === 'permissions-policy' && headers.get(k) === CAMERA_PERMISSIONS_POLICY) continue;
      headers.set(k, v);
    }
  }
  headers.set('vary', 'Host, Accept-Language, Cookie, Accept-Encoding');
  // A signed-in attendee's token the platform refused: the cookie goes (unless the page set it already).
  if (ctx.clearAttendee && !(headers.get('set-cookie') ?? '').includes(`${ATTENDEE_COOKIE}=`))
    headers.append('set-cookie', attendeeCookieCleared(ctx.clearAttendee, ctx.https));
  // Astro sends an error page as 500 whatever the page set: a page that failed here gets its status back
  // (failureStatus: 503 unreachable, 502 an unreadable answer); one Astro failed itself says 503 by the
  // Retry-After 500.astro gave it.
  const failed = response.status === 500 ? ctx.failure : undefined;
  const status =
    failed !== undefined
      ? failureStatus(failed)
      : response.status === 500 && headers.has('retry-after')
        ? 503
        : response.status;
  const method = request.method;
  const storable = ctx.cacheable && status === 200 && (method === 'GET' || method === 'HEAD');
  if (!headers.has('cache-control')) headers.set('cache-control', storable ? PUBLIC_CACHE : 'private, no-store');
  if (!response.body || status === 304 || status === 204) return new Response(response.body, { status, headers });
  const encoding = encodingOf(request.headers.get('accept-encoding') ?? undefined);
  const rendered = Buffer.from(await response.arrayBuffer());
  const body = ctx.fragments ? spliceFragments(rendered, ctx.fragments) : rendered;
  if (!storable || headers.has('set-cookie')) return encoded(body, status, headers, encoding);

  const etag = etagOf(body);
  headers.set('etag', etag);
  const pageCache = ctx.runtime.pageCache;
  let page;
  if (ctx.cacheKey && pageCache && headers.get('cache-control')?.startsWith('public')) {
    const stored: Record<string, string> = { 'content-length': String(body.length) };
    headers.forEach((v, k) => (stored[k] = v));
    page = pageCache.set(ctx.cacheKey, {
      status: 200,
      headers: stored,
      body,
      etag,
      deps: ctx.call.deps ?? [],
      // A page of one company goes stale with that company's changes only; any other, with any change.
      scope: ctx.call.companyID === undefined ? {} : { companyID: ctx.call.companyID },
      mark: ctx.pageMark,
    });
  }
  if (notModified(request.headers.get('if-none-match') ?? undefined, etag)) {
    return new Response(null, {
      status: 304,
      headers: { etag, 'cache-control': headers.get('cache-control')!, vary: headers.get('vary')! },
    });
  }
  // A stored page is compressed through the cache, so its variants are made once for all its hits.
  const variant = page && encoding ? await pageCache?.variant(page, encoding) : undefined;
  if (variant) return new Response(bodyOf(variant.body), { status: 200, headers: variant.headers });
  return encoded(body, 200, headers, encoding);
}

let security: { publicApiUrl: string; headers: [string, string][] } | undefined;

/** The security headers of a page, made once per public API address (one per process). */
function securityHeadersOf(publicApiUrl: string): [string, string][] {
  if (security?.publicApiUrl !== publicApiUrl) {
    let apiOrigin = '';
    try {
      apiOrigin = new URL(publicApiUrl).origin;
    } catch {
      // no public API: the widget cannot call out
    }
    security = { publicApiUrl, headers: Object.entries(securityHeaders(apiOrigin)) };
  }
  return security.headers;
}

/** An answer made for this request alone (private, no-store, an error page), compressed when worth it. */
async function encoded(body: Buffer, status: number, headers: Headers, encoding: Encoding | undefined) {
  let sent = body;
  if (
    encoding &&
    !headers.has('content-encoding') &&
    worthCompressing(headers.get('content-type') ?? '', body.length)
  ) {
    sent = (await compressText(encoding, body).catch(() => undefined)) ?? body;
    if (sent !== body) headers.set('content-encoding', encoding);
  }
  headers.set('content-length', String(sent.length));
  return new Response(bodyOf(sent), { status, headers });
}

/**
 * A Buffer as a Response's body, in one chunk of the same memory: given bytes, a Response copies them
 * (and a 15 KB page cost 9 µs against 2 µs so); the adapter reads the stream and writes the chunk.
 */
const bodyOf = (b: Buffer) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength));
      controller.close();
    },
  });
