// POST /{company}/{event}/checkin/scan — one scan of the check-in page's script (checkin.client.ts), live
// or sent from its offline queue: JSON { code, date, nonce, activityID? } in, checklog.checkIn at the door
// the page chose (the event's entrance, or a session's: activityID) with the staff token of the HttpOnly
// cookie, JSON { result, reason, name, replayed } out. The nonce makes a scan sent twice (a queue flushed
// again after a lost answer) get its first answer back.
import type { APIRoute } from 'astro';
import {
  checkinEvent,
  forgetStats,
  fromThePage,
  json,
  parseScan,
  refusal,
  scanView,
  staffToken,
} from '../../../../site/checkin.ts';

export const POST: APIRoute = async ({ params, locals, request }) => {
  const ctx = locals.podium;
  if (!fromThePage(request, ctx)) return json(403, { error: '403 only the check-in page may send scans' });
  const ev = await checkinEvent(ctx, params.company!, params.event!);
  if (!ev) return json(404, { error: '404 event not found' });
  const token = staffToken(ctx);
  if (!token) return json(401, { error: '401 sign in first' });
  let scan;
  try {
    scan = parseScan(await request.json());
  } catch {
    scan = undefined;
  }
  if (!scan) return json(400, { error: '400 a scan is { code, date, nonce, activityID? }' });
  const eventID = Number(ev.event.eventID);
  try {
    const row = await ctx.runtime.client.checkIn(token, { eventID, ...scan }, ctx.call);
    return json(200, scanView(row));
  } catch (err) {
    return refusal(err);
  } finally {
    // The count the page reads next includes this scan (whatever its answer: it may have counted).
    forgetStats(token, eventID);
  }
};
