import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt, ANY_LEVEL, LEVEL, type Context } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { beaconEventWire } from '../../../../shared/wire/beacon.ts';
import { conflict, notFound } from '../../../errors.ts';
import { extra, part, placeType, range } from '../fields.ts';
import {
  beaconEventByID,
  beaconEventOf,
  beaconEventsOf,
  beaconIDsByMinor,
  beaconOfCompany,
  bindBeacon,
  boundIDsByMinor,
  unbindBeacon,
} from '../repository.ts';

// Spec §4.7 beacon.event.*: a company's beacon bound to one of its events (spec §2.6 Beacon event).

const admins = { kind: 'event', levels: LEVEL.ADMIN } as const;
const which = {
  beaconID: qOpt(id, "the beacon (a beacon of the event's company)"),
  minor: qOpt(part, 'the beacon by its iBeacon minor, when only one beacon has it'),
};
const forms = [
  ['eventID', 'beaconID'],
  ['eventID', 'minor'],
] as const;

/** The one beacon `minor` names among `ids`: 404 for none, 409 when several share it. */
function onlyOne(ids: number[], where: string): number {
  if (ids.length === 0) throw notFound('beacon');
  if (ids.length > 1) throw conflict(`several beacons ${where} have this minor; name one by beaconID`);
  return ids[0]!;
}

const isAdmin = (ctx: Context) => ((ctx.access?.level ?? 0) & LEVEL.ADMIN) !== 0;

export const beaconEventBind = defineOperation({
  name: 'beacon.event.bind',
  summary:
    "Binds a beacon of the event's company to the event (admins), by beaconID or by minor; binding it again sets its type, range and extra.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    ...which,
    type: qOpt(placeType, 'what it marks: entrance, room, booth, stand or other (Podium extension; default other)'),
    range: qOpt(range, 'proximity at which its actions show: immediate, near or far (Podium extension; default near)'),
    extra: qOpt(extra, 'a note such as where it is placed (Podium extension; default none)'),
  },
  variants: forms,
  auth: admins,
  writes: true,
  answer: beaconEventWire,
  async handler(ctx, p) {
    const companyID = ctx.access!.companyID;
    let beaconID: number;
    if (p.beaconID !== undefined) {
      if (!(await beaconOfCompany(ctx.db, companyID, p.beaconID))) throw notFound('beacon');
      beaconID = p.beaconID;
    } else beaconID = onlyOne(await beaconIDsByMinor(ctx.db, companyID, p.minor!), 'of the company');
    const beaconEventID = await bindBeacon(ctx.db, {
      eventID: p.eventID,
      beaconID,
      type: p.type,
      range: p.range,
      extra: p.extra,
      date: ctx.now,
    });
    return [(await beaconEventByID(ctx.db, beaconEventID))!];
  },
});

export const beaconEventDismiss = defineOperation({
  name: 'beacon.event.dismiss',
  summary:
    'Takes a beacon off the event (admins), by beaconID or by minor, and answers the binding as it was; its actions and their log go with it.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), ...which },
  variants: forms,
  auth: admins,
  writes: true,
  answer: beaconEventWire,
  async handler(ctx, p) {
    const beaconID = p.beaconID ?? onlyOne(await boundIDsByMinor(ctx.db, p.eventID, p.minor!), 'of the event');
    const row = await beaconEventOf(ctx.db, p.eventID, beaconID);
    if (!row) throw notFound('beacon');
    await unbindBeacon(ctx.db, Number(row.beaconEventID));
    return [row];
  },
});

export const beaconEventFind = defineOperation({
  name: 'beacon.event.find',
  summary:
    "Lists the event's beacons with their iBeacon identity (any member: the app ranges for them), by minor; `has-action`: only those with an action. Attendees count and see active actions only.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    selection: q(z.enum(['all', 'has-action'], 'must be all or has-action'), '`all` or `has-action`'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  answer: beaconEventWire,
  handler: (ctx, p) => beaconEventsOf(ctx.db, p.eventID, p.selection === 'has-action', !isAdmin(ctx), pageOf(p)),
});

export { isAdmin };
