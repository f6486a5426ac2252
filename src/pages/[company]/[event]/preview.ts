// GET /{company}/{event}/preview?grant=… — the link of event.preview: the event's admins (and whoever
// they send it to) see its site before it is published. A grant the platform takes for this event goes
// into the event's grant cookie, as the access-code form keeps one, and the visitor lands on the event's
// home without it in the address. Any other (cut short, expired, forged, another event's) is refused
// here, so a link made by someone else cannot replace a visitor's grant of this event.
import type { APIRoute } from 'astro';
import { isNotFound, isPodiumError, type PodiumEvent } from '../../../client/index.ts';
import { eventLinks } from '../../../site/load.ts';
import { GRANT_COOKIE, grantCookieOptions, grantInfo } from '../../../site/grant.ts';
import { textAnswer } from '../../../site/route.ts';
import type { RequestContext } from '../../../site/context.ts';

const REFUSED = 'This preview link is not valid or has expired: ask event.preview for a new one.';

export const GET: APIRoute = async ({ params, locals, url, cookies, redirect }) => {
  const ctx = locals.podium;
  const grant = url.searchParams.get('grant') ?? '';
  const info = grantInfo(grant);
  if (!info || info.expires <= ctx.runtime.now() / 1000) return textAnswer(400, REFUSED);
  const event = await opened(ctx, params.company!, params.event!, grant, info.eventID);
  if (!event) return textAnswer(400, REFUSED);
  const { base, home } = eventLinks(ctx, params.company!, event);
  cookies.set(GRANT_COOKIE, grant, grantCookieOptions(base || '/', info.expires, ctx.https));
  const answer = redirect(home, 303);
  // The address held the grant: no page it leads to names it to another site.
  answer.headers.set('referrer-policy', 'no-referrer');
  return answer;
};

/**
 * The event at /{company}/{event} when the platform takes `grant` for it: the event it names, whose
 * sections it reads only to a grant that opens it when the event is hidden or private; else undefined.
 */
async function opened(
  ctx: RequestContext,
  company: string,
  event: string,
  grant: string,
  eventID: number,
): Promise<PodiumEvent | undefined> {
  const { client } = ctx.runtime;
  try {
    const found = await client.eventGet({ namespace: company, nickname: event }, grant, ctx.call);
    if (found.eventID !== String(eventID)) return undefined;
    await client.hotsiteFind(eventID, grant, ctx.call);
    return found;
  } catch (err) {
    if (isNotFound(err) || (isPodiumError(err) && (err.status === 400 || err.status === 403))) return undefined;
    throw err;
  }
}
