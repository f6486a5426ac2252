import { z } from 'zod';
import { defineOperation, q, qOpt, LEVEL, type Context } from '../../../kernel/table.ts';
import { bit, id, text, timestamp } from '../../../schemas.ts';
import { checkScanWire } from '../../../../shared/wire/checklog.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { activityInEvent, type Direction } from '../repository.ts';
import { scan } from '../scan.ts';

/** Who may scan: the event's admins, staff and collectors (a phone signed in with the event's password). */
export const SCANNERS = LEVEL.ADMIN | LEVEL.STAFF | LEVEL.COLLECTOR;

const MINUTE_MS = 60_000;

const params = {
  eventID: q(id, 'the event'),
  activityID: qOpt(id, "the session's door; left out: the event's entrance"),
  code: q(text(200), "the attendee's qrCode, as scanned or typed"),
  date: q(timestamp, "the scan's time on the device (Unix seconds): with an offline queue, when it was scanned"),
  nonce: qOpt(
    z.string().regex(/^[\w-]{8,64}$/, 'must be 8 to 64 letters, digits, _ or -'),
    "the device's id of this scan: the same nonce sent again gets the first answer (Podium extension)",
  ),
};

/** checklog.checkIn and checklog.checkOut: one scan (src/platform/resources/checklog/scan.ts). */
export async function scanAt(
  ctx: Context,
  p: { eventID: number; activityID?: number; code: string; date: number; nonce?: string; reentry?: number },
  direction: Direction,
) {
  if (p.activityID !== undefined && (await activityInEvent(ctx.db, p.eventID, p.activityID)) === undefined)
    throw notFound('activity');
  const caller = ctx.caller!;
  const row = await scan(
    ctx.db,
    {
      eventID: p.eventID,
      activityID: p.activityID ?? 0,
      code: p.code,
      date: p.date,
      direction,
      nonce: p.nonce,
      reentry: p.reentry === 1,
      deviceID: caller.personID,
      nowMs: ctx.now * 1000,
    },
    {
      async unknownCode() {
        const { count, resetMs } = await ctx.counter.hit(`checkin:${caller.tokenHash}`, MINUTE_MS);
        if (count > ctx.config.CHECKIN_UNKNOWN_PER_MINUTE)
          throw new ApiError(429, 'too many unknown codes from this device, wait a minute', {
            'Retry-After': String(Math.max(1, Math.ceil(resetMs / 1000))),
          });
      },
    },
  );
  return [row];
}

export const checkIn = defineOperation({
  name: 'checklog.checkIn',
  summary:
    "Scans an attendee in at the event's entrance or a session's door: who it is, and first entry, re-entry or refused.",
  methods: ['GET', 'POST'],
  params: {
    ...params,
    reentry: qOpt(bit, '1: a person already inside may be scanned in again (a door without exit scans); default 0'),
  },
  auth: { kind: 'event', levels: SCANNERS },
  writes: true,
  answer: checkScanWire,
  handler: (ctx, p) => scanAt(ctx, p, 'in'),
});

export const checkOut = defineOperation({
  name: 'checklog.checkOut',
  summary: "Scans an attendee out of the event's entrance or a session's door (refused when not inside).",
  methods: ['GET', 'POST'],
  params,
  auth: { kind: 'event', levels: SCANNERS },
  writes: true,
  answer: checkScanWire,
  handler: (ctx, p) => scanAt(ctx, p, 'out'),
});
