// GET /{company}/{event}/checkin/stats[?activityID=] — the check-in page's live count: checklog.stats's
// row of the door the page chose (the entrance, or a session's: people inside now, across every device;
// entries; for the entrance, the approved attendees and how many of them are inside), read with the
// staff token of the HttpOnly cookie. A session nobody was scanned at yet has no row: zeros. The page
// asks every few seconds and after each scan (checkin.ts statsFor: one platform call a second for the
// phone's reads and page loads together).
import type { APIRoute } from 'astro';
import { checkinEvent, doorOf, fromThePage, json, refusal, staffToken, statsFor } from '../../../../site/checkin.ts';

export const GET: APIRoute = async ({ params, locals, request, url }) => {
  const ctx = locals.podium;
  if (!fromThePage(request, ctx)) return json(403, { error: '403 only the check-in page may read this' });
  const ev = await checkinEvent(ctx, params.company!, params.event!);
  if (!ev) return json(404, { error: '404 event not found' });
  const token = staffToken(ctx);
  if (!token) return json(401, { error: '401 sign in first' });
  const door = doorOf(url.searchParams.get('activityID') ?? undefined);
  if (door === undefined) return json(400, { error: '400 activityID must be a session id' });
  try {
    const rows = await statsFor(ctx, token, Number(ev.event.eventID));
    const row = rows.find((r) => r.activityID === String(door)) ?? (door === 0 ? rows[0] : undefined);
    const door0 = door === 0 ? row : undefined;
    return json(200, { activityID: String(door), inside: row?.inside ?? '0', entries: row?.entries ?? '0', approved: door0?.approved ?? '', attendeesInside: door0?.attendeesInside ?? '' }); // prettier-ignore
  } catch (err) {
    return refusal(err);
  }
};
