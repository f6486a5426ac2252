// GET /{company}/{event}/preview?grant=… — the link of event.preview: the event's admins (and whoever
// they send it to) see its site before it is published. A grant the platform takes for this event goes
// into the event's grant cookie, as the access-code form keeps one, and the visitor lands on the event's
// home without it in the address. Any other (cut short, expired, forged, another event's) is refused
// here, so a link made by someone else cannot replace a visitor's grant of this event.
import type { APIRoute } from 'astro';
import { isNotFound, isPodiumError } from '../../../client/index.ts';
import { GRANT_COOKIE, grantCookieOptions, grantInfo } from '../../../site/grant.ts';
import { textAnswer } from '../../../site/route.ts';
import type { RequestContext } from '../../../site/context.ts';

const REFUSED = 'This preview link is not valid or has expired: ask event.preview for a new one.';

export const GET: APIRoute = async ({ params, locals, url, cookies, redirect }) => {
  const ctx = locals.podium;
  const grant = url.searchParams.get('grant') ?? '';
  const info = grantInfo(grant);
  if (!info || info.expires <= ctx.runtime.now() / 1000) return textAnswer(400, REFUSED);
  if (!(await opens(ctx, params.company!, params.event!, grant, info.eventID))) return textAnswer(400, REFUSED);
  const base = ctx.site.kind === 'event' ? '' : `/${encodeURIComponent(params.company!)}/${encodeURIComponent(params.event!)}`; // prettier-ignore
  cookies.set(GRANT_COOKIE, grant, grantCookieOptions(base || '/', info.expires, ctx.https));
  const answer = redirect(base || '/', 303);
  // The address held the grant: no page it leads to names it to another site.
  answer.headers.set('referrer-policy', 'no-referrer');
  return answer;
};

/**
 * Whether the platform takes `grant` for the event at /{company}/{event}: the event it names, whose
 * sections it reads only to a grant that opens it when the event is hidden or private.
 */
async function opens(ctx: RequestContext, company: string, event: string, grant: string, eventID: number) {
  const { client } = ctx.runtime;
  try {
    const found = await client.eventGet({ namespace: company, nickname: event }, grant, ctx.call);
    if (found.eventID !== String(eventID)) return false;
    await client.hotsiteFind(eventID, grant, ctx.call);
    return true;
  } catch (err) {
    if (isNotFound(err) || (isPodiumError(err) && (err.status === 400 || err.status === 403))) return false;
    throw err;
  }
}
