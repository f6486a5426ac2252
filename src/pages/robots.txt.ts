// GET /robots.txt — per host: everything may be crawled but /_podium/; the host's sitemap.
import type { APIRoute } from 'astro';
import { robotsTxt } from '../site/seo.ts';

export const GET: APIRoute = ({ locals }) => {
  const ctx = locals.podium;
  ctx.cacheable = true;
  const origin = ctx.site.kind === 'event' ? `https://${ctx.site.cname}` : ctx.runtime.siteUrl;
  return new Response(robotsTxt([`${origin}/sitemap.xml`]), {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
};
