import {
  b,
  bOpt,
  defineOperation,
  editParams,
  pageOf,
  pageParams,
  q,
  qOpt,
  ANY_LEVEL,
  LEVEL,
} from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { beaconActionWire } from '../../../../shared/wire/beacon.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { ACTION_EDIT_KEYS, actionMessage, actionTitle, actionType, actionURL } from '../fields.ts';
import { actionByID, actionsOf, beaconEventByID, insertAction, removeAction, updateAction } from '../repository.ts';
import { isAdmin } from './event.ts';

// The beacon action (the spec does not show it: Podium's design, docs/api/beacons.md): what an
// organizer attaches to a beacon of the event, shown to attendees near it — a message, or a link to open.
// An action of type `message` needs a message; one of type `url` needs a url.

const byBeaconEvent = { kind: 'event', levels: LEVEL.ADMIN, via: ['beaconEventID'] } as const;
const byAction = { kind: 'event', levels: LEVEL.ADMIN, via: ['beaconActionID'] } as const;

function needs(type: string, message: string, url: string): void {
  if (type === 'message' && message === '') throw badRequest('message cannot be empty for an action of type message');
  if (type === 'url' && url === '') throw badRequest('url cannot be empty for an action of type url');
}

export const beaconActionCreate = defineOperation({
  name: 'beacon.action.create',
  summary: 'Attaches an action to a beacon of the event (admins): a message or a link shown to attendees near it.',
  methods: ['POST'],
  params: {
    beaconEventID: q(id, 'the beacon of the event (beacon.event.bind answers it)'),
    type: b(actionType, '`message` (title and text) or `url` (title and a link); cannot be edited'),
    title: b(actionTitle, 'headline shown to the attendee'),
    message: bOpt(actionMessage, 'plain text shown (needed for type message)'),
    url: bOpt(actionURL, 'http or https link opened (needed for type url)'),
  },
  auth: byBeaconEvent,
  extension: true,
  writes: true,
  answer: beaconActionWire,
  async handler(ctx, p) {
    const be = (await beaconEventByID(ctx.db, p.beaconEventID))!;
    needs(p.type, p.message ?? '', p.url ?? '');
    const beaconActionID = await insertAction(ctx.db, {
      beaconEventID: p.beaconEventID,
      eventID: Number(be.eventID),
      type: p.type,
      title: p.title,
      message: p.message ?? '',
      url: p.url ?? '',
      date: ctx.now,
    });
    return [(await actionByID(ctx.db, beaconActionID))!];
  },
});

export const beaconActionEdit = defineOperation({
  name: 'beacon.action.edit',
  summary: `Edits one field of a beacon action (admins). Keys: ${keyList(ACTION_EDIT_KEYS)}.`,
  methods: ['POST'],
  params: {
    beaconActionID: q(id, 'the action'),
    ...editParams(2000, 'new value; empty clears message (type url) and url (type message)'),
  },
  auth: byAction,
  extension: true,
  writes: true,
  answer: beaconActionWire,
  async handler(ctx, p) {
    const { column, value } = parseEdit(ACTION_EDIT_KEYS, p.key, p.value);
    const before = (await actionByID(ctx.db, p.beaconActionID))!;
    const after = { ...before, [column]: String(value) };
    needs(before.type, after.message, after.url);
    await updateAction(ctx.db, p.beaconActionID, column, value);
    return [(await actionByID(ctx.db, p.beaconActionID))!];
  },
});

export const beaconActionRemove = defineOperation({
  name: 'beacon.action.remove',
  summary: 'Removes a beacon action (admins) and answers it as it was; its log goes with it.',
  methods: ['GET'],
  params: { beaconActionID: q(id, 'the action') },
  auth: byAction,
  extension: true,
  writes: true,
  answer: beaconActionWire,
  async handler(ctx, p) {
    const row = (await actionByID(ctx.db, p.beaconActionID))!;
    await removeAction(ctx.db, p.beaconActionID);
    return [row];
  },
});

export const beaconActionFind = defineOperation({
  name: 'beacon.action.find',
  summary:
    "Lists the actions of the event's beacons, or of one (any member: the app shows them near the beacon); attendees see active ones only.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    beaconEventID: qOpt(id, 'only the actions of this beacon of the event'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  extension: true,
  writes: false,
  answer: beaconActionWire,
  async handler(ctx, p) {
    if (p.beaconEventID !== undefined) {
      const be = await beaconEventByID(ctx.db, p.beaconEventID);
      if (!be || Number(be.eventID) !== p.eventID) throw notFound('beaconEvent');
    }
    return actionsOf(ctx.db, p.eventID, p.beaconEventID, !isAdmin(ctx), pageOf(p));
  },
});
