// GET /{company}/sitemap.xml — a company's directory and the pages of its public events that live on
// the platform's host (an event with a custom domain is in that domain's own /sitemap.xml).
import type { APIRoute } from 'astro';
import { eventSitemap, sitemapXml } from '../../site/seo.ts';
import { isNotFound } from '../../client/index.ts';

export const GET: APIRoute = async ({ locals, params }) => {
  const ctx = locals.podium;
  const namespace = params.company!;
  const notFound = () =>
    new Response('404 company not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (ctx.site.kind !== 'platform') return notFound();
  let events;
  try {
    await ctx.runtime.client.companyGet({ namespace }, ctx.call);
    events = await ctx.runtime.client.companyEventFind(namespace, 'all', ctx.call);
  } catch (err) {
    if (isNotFound(err)) return notFound();
    throw err;
  }
  ctx.cacheable = true;
  const urls = [{ loc: `${ctx.runtime.siteUrl}/${encodeURIComponent(namespace)}` }];
  for (const e of events.filter((x) => x.public === '1')) {
    const pages = await eventSitemap(ctx, namespace, e.nickname);
    urls.push(...pages.filter((p) => p.loc.startsWith(ctx.runtime.siteUrl)));
  }
  return new Response(sitemapXml(urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
