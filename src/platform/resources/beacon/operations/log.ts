import { defineOperation, q, qOpt, ANY_LEVEL, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { beaconCountWire, beaconLogWire } from '../../../../shared/wire/beacon.ts';
import { ApiError, conflict, forbidden, notFound } from '../../../errors.ts';
import { actionByID, beaconEventByID, countLogs, insertLog, isAttendee, recentLog } from '../repository.ts';
import { isAdmin } from './event.ts';

// Spec §4.7 beacon.log.*: who met which beacon action, and how often.

/** The same person meeting the same action again within this many seconds is the same meeting. */
export const SAME_MEETING_S = 60;
/** New meetings one person may log in one event per minute (an app ranging in a loop is stopped here). */
export const LOGS_PER_MINUTE = 60;

export const beaconLogBind = defineOperation({
  name: 'beacon.log.bind',
  summary: `Logs that a person met a beacon action (any member, for themselves; admins for any attendee). Within ${SAME_MEETING_S} s the same meeting is answered again, not added.`,
  methods: ['GET'],
  params: {
    beaconActionID: q(id, 'the action met'),
    personID: qOpt(id, "the attendee who met it (another attendee's: admins only); default the token's person"),
  },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['beaconActionID'] },
  writes: true,
  answer: beaconLogWire,
  async handler(ctx, p) {
    const self = ctx.caller!.personID;
    const personID = p.personID ?? self;
    const action = (await actionByID(ctx.db, p.beaconActionID))!;
    const eventID = Number(action.eventID);
    if (personID !== self) {
      if (!isAdmin(ctx)) throw forbidden('an attendee may log only their own meetings');
      if (!(await isAttendee(ctx.db, eventID, personID))) throw notFound('person');
    }
    if (action.active !== '1') throw conflict('the beacon action is paused');
    const recent = await recentLog(ctx.db, p.beaconActionID, personID, ctx.now - SAME_MEETING_S);
    if (recent) return [{ ...recent, created: '0' }];
    const { count, resetMs } = await ctx.counter.hit(`beacon-log:${eventID}:${personID}`, 60_000);
    if (count > LOGS_PER_MINUTE)
      throw new ApiError(429, 'too many beacon meetings logged for this person, wait a minute', {
        'Retry-After': String(Math.max(1, Math.ceil(resetMs / 1000))),
      });
    const row = await insertLog(ctx.db, {
      eventID,
      beaconEventID: Number(action.beaconEventID),
      beaconActionID: p.beaconActionID,
      personID,
      date: ctx.now,
    });
    return [{ ...row, created: '1' }];
  },
});

export const beaconLogCount = defineOperation({
  name: 'beacon.log.count',
  summary:
    "Counts the meetings logged (and the different people) for one beacon of the event's actions, or for the whole event (admins).",
  methods: ['GET'],
  params: {
    beaconEventID: qOpt(id, 'the beacon of the event'),
    eventID: qOpt(id, 'the event: all its beacons'),
  },
  variants: [['beaconEventID'], ['eventID']],
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['beaconEventID', 'eventID'] },
  writes: false,
  answer: beaconCountWire,
  async handler(ctx, p) {
    let eventID = p.eventID;
    if (p.beaconEventID !== undefined) {
      const be = (await beaconEventByID(ctx.db, p.beaconEventID))!;
      eventID = Number(be.eventID);
    }
    const counts = await countLogs(ctx.db, eventID!, p.beaconEventID);
    return [{ eventID: String(eventID), beaconEventID: p.beaconEventID === undefined ? '' : String(p.beaconEventID), ...counts }]; // prettier-ignore
  },
});
