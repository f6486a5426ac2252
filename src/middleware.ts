// Astro middleware: every answer gets the security headers (CSP without inline code) and Vary; a public
// page (the page set `locals.podium.cacheable`) gets an ETag and `Cache-Control: public, …`, is stored
// in the page cache, and a matching If-None-Match is answered 304. Anything else is `private, no-store`
// unless the route set its own Cache-Control. The front server compresses by Accept-Encoding (a stored
// page once, kept with it in the cache), so every answer varies on it too.

import { defineMiddleware } from 'astro:middleware';
import { etagOf, notModified } from './site/etag.ts';
import { securityHeaders } from './site/csp.ts';
import { spliceFragments } from './site/fragments.ts';

export const PUBLIC_CACHE = 'public, max-age=0, must-revalidate';

export const onRequest = defineMiddleware(async (context, next) => {
  const ctx = context.locals.podium;
  if (!ctx) {
    return new Response('The Podium site runs behind its front server: start it with `podium start`.', {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const response = await next();
  const headers = new Headers(response.headers);
  const type = headers.get('content-type') ?? '';
  if (type.startsWith('text/html')) {
    headers.set('content-type', 'text/html; charset=utf-8');
    let apiOrigin = '';
    try {
      apiOrigin = new URL(ctx.runtime.publicApiUrl).origin;
    } catch {
      // no public API: the widget cannot call out
    }
    for (const [k, v] of Object.entries(securityHeaders(apiOrigin))) {
      // A page may send less Referer than the default (/podium-password carries a code in its URL).
      if (k === 'referrer-policy' && headers.get(k) === 'no-referrer') continue;
      headers.set(k, v);
    }
  }
  headers.set('vary', 'Host, Accept-Language, Cookie, Accept-Encoding');
  const method = context.request.method;
  const storable = ctx.cacheable && response.status === 200 && (method === 'GET' || method === 'HEAD');
  if (!headers.has('cache-control')) headers.set('cache-control', storable ? PUBLIC_CACHE : 'private, no-store');
  const fragments = ctx.fragments;
  if (!storable || headers.has('set-cookie')) {
    if (!fragments || !response.body) return new Response(response.body, { status: response.status, headers });
    ctx.rendered = spliceFragments(Buffer.from(await response.arrayBuffer()), fragments);
    headers.set('content-length', String(ctx.rendered.length));
    return new Response(null, { status: response.status, headers });
  }

  const rendered = Buffer.from(await response.arrayBuffer());
  const body = fragments ? spliceFragments(rendered, fragments) : rendered;
  const etag = etagOf(body);
  headers.set('etag', etag);
  headers.set('content-length', String(body.length));
  const pageCache = ctx.runtime.pageCache;
  if (ctx.cacheKey && pageCache && headers.get('cache-control')?.startsWith('public')) {
    const stored: Record<string, string> = {};
    headers.forEach((v, k) => (stored[k] = v));
    // The front compresses this first answer through the stored page, so its variants are made once.
    ctx.page = pageCache.set(ctx.cacheKey, {
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
  if (notModified(context.request.headers.get('if-none-match'), etag)) {
    return new Response(null, {
      status: 304,
      headers: { etag, 'cache-control': headers.get('cache-control')!, vary: headers.get('vary')! },
    });
  }
  // The front server writes these bytes as they are (no second copy through a stream).
  ctx.rendered = body;
  return new Response(null, { status: 200, headers });
});
