import { z } from 'zod';
import {
  b,
  bOpt,
  defineOperation,
  pageOf,
  pageParams,
  q,
  qOpt,
  ANY_LEVEL,
  type AnyOperation,
  type Context,
} from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { guestEmail, guestName } from '../fields.ts';
import { badRequest } from '../../../errors.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../edit.ts';
import { isAdmin, isAdminOrStaff } from '../../../kernel/call.ts';
import { guestWire } from '../../../../shared/wire/guest.ts';
import { deleteGuest, findGuests, guestRecord, updateGuest } from '../repository.ts';
import { addGuest, guestFor, hostOf, type Actor } from '../rules.ts';

// Guests (spec §4.9, §2.6 Guest; issue 16; docs/api/guests.md).

/** The editable fields of a guest. */
const KEYS: Record<string, EditKey> = {
  name: editKey(guestName),
  email: editKey(guestEmail, { clear: '' }),
};

const actorOf = (ctx: Context): Actor => ({ personID: ctx.caller!.personID, admin: isAdmin(ctx) });
const hostParam = qOpt(id, "the attendee who brings the guest (default: the token's person; another's: admins)");

/** Spec §4.9: an attendee brings a guest. */
const guestBind = defineOperation({
  name: 'event.guest.bind',
  summary:
    "Adds a guest of an attendee (the token's person, or Q hostID for admins): up to the event's guestsForMember each; guests take places of the capacity.",
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    hostID: hostParam,
    name: b(guestName, "the guest's name"),
    email: bOpt(guestEmail, "the guest's e-mail"),
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: true,
  answer: guestWire,
  async handler(ctx, p) {
    const hostID = hostOf(actorOf(ctx), p.hostID, 'person');
    return [guestRecord(await addGuest(ctx.db, p.eventID, hostID, { name: p.name, email: p.email ?? '' }, ctx.now))];
  },
});

const contentSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/** Spec §4.9: edits a guest (Q key + B value, or B content: a JSON object of key values). */
const guestOperate = defineOperation({
  name: 'event.guest.operate',
  summary: `Edits a guest (its host or an admin): Q key + B value, or B content (JSON object of key values). Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the guest (its personID, the same as eventGuestID)'),
    hostID: hostParam,
    key: qOpt(text(60), 'field to edit'),
    value: bOpt(z.string().max(320, 'must be at most 320 characters'), 'new value; empty clears the e-mail'),
    content: bOpt(text(2000), `JSON object of key values (keys: ${keyList(KEYS)})`),
  },
  variants: [
    ['eventID', 'personID', 'key'],
    ['eventID', 'personID', 'content'],
  ],
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: true,
  answer: guestWire,
  async handler(ctx, p) {
    let pairs: [string, string | undefined][];
    if (p.key !== undefined) pairs = [[p.key, p.value]];
    else {
      let json: unknown;
      try {
        json = JSON.parse(p.content!);
      } catch {
        throw badRequest('content must be a JSON object of key values');
      }
      const parsed = contentSchema.safeParse(json);
      if (!parsed.success || Array.isArray(json)) throw badRequest('content must be a JSON object of key values');
      pairs = Object.entries(parsed.data).map(([k, v]) => [k, String(v)]);
      if (pairs.length === 0) throw badRequest('content must name at least one key');
    }
    const edits: Record<string, string> = {};
    for (const [key, value] of pairs) {
      const { column, value: v } = parseEdit(KEYS, key, value);
      edits[column] = v as string;
    }
    // The edit is checked first (an unknown key names the valid ones), then the guest is found.
    const guest = await guestFor(ctx.db, p.eventID, p.personID, actorOf(ctx), p.hostID);
    await updateGuest(ctx.db, guest.eventGuestID, edits);
    return [guestRecord({ ...guest, ...edits })];
  },
});

/** Spec §4.9: removes a guest. */
const guestDismiss = defineOperation({
  name: 'event.guest.dismiss',
  summary: 'Removes a guest (its host or an admin); its place of the capacity is free again.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the guest'),
    hostID: hostParam,
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: true,
  answer: guestWire,
  async handler(ctx, p) {
    const guest = await guestFor(ctx.db, p.eventID, p.personID, actorOf(ctx), p.hostID);
    await deleteGuest(ctx.db, guest.eventGuestID);
    return [guestRecord(guest)];
  },
});

/** Spec §4.9: the event's guests (admins and staff: all; an attendee: their own). */
const guestFind = defineOperation({
  name: 'event.guest.find',
  summary:
    "Lists guests: all of the event's for admins and staff (or one host's with Q hostID), the caller's own for attendees.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    query: qOpt(text(200), 'part of the name or e-mail'),
    hostID: qOpt(id, "Podium extension (admins and staff): one host's guests"),
    ...pageParams,
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  answer: guestWire,
  handler: (ctx, p) => {
    const all = isAdminOrStaff(ctx);
    const hostID = all ? p.hostID : ctx.caller!.personID;
    return findGuests(ctx.db, p.eventID, { hostID, query: p.query, page: pageOf(p) });
  },
});

/** Spec §4.9: one guest. */
const guestGet = defineOperation({
  name: 'event.guest.get',
  summary: 'Reads one guest (its host, admins and staff).',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the guest'),
    hostID: hostParam,
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  answer: guestWire,
  async handler(ctx, p) {
    return [guestRecord(await guestFor(ctx.db, p.eventID, p.personID, actorOf(ctx), p.hostID, isAdminOrStaff(ctx)))];
  },
});

/** Guests (issue 16, docs/api/guests.md). */
export const guestOperations: readonly AnyOperation[] = [guestBind, guestOperate, guestDismiss, guestFind, guestGet];
