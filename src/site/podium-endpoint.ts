// The site's own addresses under /_podium/ (injected as a route by astro.config.mjs: src/pages cannot
// hold a folder starting with `_`). Host-independent: the middleware passes them through unrouted.
// - /_podium/health: 200 ok.
// - /_podium/theme.css?p=…: an event's theme stylesheet (src/site/theme.ts), immutable (its address
//   carries its inputs).
// - /_podium/domains/ask?domain=…: Caddy's on_demand_tls ask, 200 only for configured domains. A lookup
//   spends the allowance of the ask's caller (Caddy), never the visitors'.

import type { APIRoute } from 'astro';
import { etagOf, notModified } from './etag.ts';
import { normalizeHostname } from './net.ts';
import { lookupFailed, textAnswer, visitorOf } from './route.ts';
import { themeStylesheet } from './theme.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const { url, request, locals } = context;
  switch (context.params.path) {
    case 'health':
      return textAnswer(200, 'ok');
    case 'theme.css': {
      const body = themeStylesheet(url.searchParams);
      const etag = etagOf(body);
      const headers = {
        'content-type': 'text/css; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        etag,
      };
      if (notModified(request.headers.get('if-none-match') ?? undefined, etag))
        return new Response(null, { status: 304, headers });
      return new Response(body, { headers });
    }
    case 'domains/ask': {
      const domain = normalizeHostname(url.searchParams.get('domain') ?? '');
      if (!domain) return textAnswer(400, 'domain must be a host name');
      let site;
      try {
        site = await locals.runtime.hosts.resolve(domain, visitorOf(context, locals.runtime));
      } catch (err) {
        return lookupFailed(err, 'the platform is not reachable');
      }
      return site.kind === 'unknown' ? textAnswer(404, 'not a configured domain') : textAnswer(200, 'ok');
    }
    default:
      return textAnswer(404, 'not found');
  }
};
