// GET /sitemap.xml — per host: on an event's custom domain, that event's pages; on the platform's host,
// its home (the platform has no public list of companies; each company's directory and events are in
// /{company}/sitemap.xml — see docs/site.md).
import type { APIRoute } from 'astro';
import { eventSitemap, sitemapXml } from '../site/seo.ts';

export const GET: APIRoute = async ({ locals }) => {
  const ctx = locals.podium;
  ctx.cacheable = true;
  const urls =
    ctx.site.kind === 'event'
      ? await eventSitemap(ctx, ctx.site.namespace, ctx.site.nickname)
      : [{ loc: `${ctx.runtime.siteUrl}/` }];
  return new Response(sitemapXml(urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
