// GET /{company}/{event}/checkin/stats — the check-in page's live count: checklog.stats's entrance row
// (people inside now, across every device; entries; approved attendees), read with the staff token of
// the HttpOnly cookie. The page asks every few seconds and after each scan.
import type { APIRoute } from 'astro';
import { checkinEvent, fromThePage, json, refusal, staffToken } from '../../../../site/checkin.ts';

export const GET: APIRoute = async ({ params, locals, request }) => {
  const ctx = locals.podium;
  if (!fromThePage(request, ctx)) return json(403, { error: '403 only the check-in page may read this' });
  const ev = await checkinEvent(ctx, params.company!, params.event!);
  if (!ev) return json(404, { error: '404 event not found' });
  const token = staffToken(ctx);
  if (!token) return json(401, { error: '401 sign in first' });
  try {
    const rows = await ctx.runtime.client.checkStats(token, Number(ev.event.eventID), ctx.call);
    const entrance = rows.find((r) => r.activityID === '0') ?? rows[0];
    return json(200, { inside: entrance?.inside ?? '0', entries: entrance?.entries ?? '0', approved: entrance?.approved ?? '' }); // prettier-ignore
  } catch (err) {
    return refusal(err);
  }
};
