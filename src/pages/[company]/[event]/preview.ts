// GET /{company}/{event}/preview?grant=… — the link of event.preview: the event's admins (and whoever
// they send it to) see its site before it is published. The grant goes into the event's grant cookie,
// as the access-code form keeps one, and the visitor lands on the event's home without it in the
// address. Nothing here trusts it: the platform checks it on every read (src/site/load.ts previewOf).
import type { APIRoute } from 'astro';
import { GRANT_COOKIE, grantCookieOptions, grantInfo } from '../../../site/grant.ts';
import { textAnswer } from '../../../site/route.ts';

export const GET: APIRoute = ({ params, locals, url, cookies, redirect }) => {
  const ctx = locals.podium;
  const grant = url.searchParams.get('grant') ?? '';
  const info = grantInfo(grant);
  if (!info || info.expires <= ctx.runtime.now() / 1000)
    return textAnswer(400, 'This preview link is not valid or has expired: ask event.preview for a new one.');
  const base = ctx.site.kind === 'event' ? '' : `/${encodeURIComponent(params.company!)}/${encodeURIComponent(params.event!)}`; // prettier-ignore
  cookies.set(GRANT_COOKIE, grant, grantCookieOptions(base || '/', info.expires, ctx.https));
  const answer = redirect(base || '/', 303);
  // The address held the grant: no page it leads to names it to another site.
  answer.headers.set('referrer-policy', 'no-referrer');
  return answer;
};
