import { z } from 'zod';
import {
  defineOperation,
  editParams,
  pageOf,
  pageParams,
  q,
  qOpt,
  LEVEL,
  type AnyOperation,
} from '../../../kernel/table.ts';
import { editKey, keyList, parseEdit } from '../../../edit.ts';
import { email, id, text } from '../../../schemas.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { senderWire } from '../../../../shared/wire/messaging.ts';
import { personOfEvent, senderRows, setSender, startCheck } from '../repository.ts';
import { SENDER_CHECK_JOB } from '../job.ts';

// An event's own senders (issue 15 outcome 5, spec §4.9 event.sender.*; docs/messaging.md "Senders").
// One per organizer (personID) and event: a name and an address whose domain event.sender.refresh
// checks for SPF, DKIM and DMARC in a job. Only a verified sender is used as From.

/** A display name: one line (a line break would start a header of its own). */
const senderName = text(200)
  .refine((v) => !/[\r\n]/.test(v), 'cannot contain line breaks')
  .transform((v) => v.trim());

const KEYS = {
  senderName: editKey(senderName, { clear: '' }),
  senderEmail: editKey(
    email.refine((v) => !/[\r\n<>",;]/.test(v), 'must be a plain address').transform((v) => v.toLowerCase()),
  ),
};

const senderOf = async (db: Parameters<typeof senderRows>[0], eventID: number, personID: number) => {
  const rows = await senderRows(db, { eventID, personID });
  if (rows.length === 0) throw notFound('sender');
  return rows;
};

const senderEdit = defineOperation({
  name: 'event.sender.edit',
  summary: `Sets the name or address an organizer's e-mails of the event come from (made on first edit). Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the organizer the sender belongs to (a person of the event or of its company)'),
    ...editParams(320, 'the new value; empty clears senderName', keyList(KEYS)),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: senderWire,
  writes: true,
  async handler(ctx, p) {
    const edit = parseEdit(KEYS, p.key, p.value);
    if (!(await personOfEvent(ctx.db, p.eventID, p.personID))) throw notFound('person');
    await setSender(ctx.db, p.eventID, p.personID, edit.column as 'senderName' | 'senderEmail', edit.value as string, ctx.now); // prettier-ignore
    return senderOf(ctx.db, p.eventID, p.personID);
  },
});

const senderFind = defineOperation({
  name: 'event.sender.find',
  summary: "Lists the event's senders with the state of their DNS checks.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    selection: q(z.enum(['all'], 'must be all'), 'all'),
    query: qOpt(text(320), 'senders whose address or name contains this'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: senderWire,
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    return senderRows(ctx.db, { eventID: p.eventID, query: p.query }, page.limit, page.offset);
  },
});

const senderGet = defineOperation({
  name: 'event.sender.get',
  summary: "Reads an organizer's sender of the event and its last DNS check (SPF, DKIM, DMARC).",
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), personID: q(id, 'the organizer the sender belongs to') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: senderWire,
  writes: false,
  handler: (ctx, p) => senderOf(ctx.db, p.eventID, p.personID),
});

const senderRefresh = defineOperation({
  name: 'event.sender.refresh',
  summary:
    "Checks the sender's domain for SPF, DKIM and DMARC again, in a job: answers at once with state 'checking'; event.sender.get shows the result.",
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), personID: q(id, 'the organizer the sender belongs to') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: senderWire,
  writes: true,
  async handler(ctx, p) {
    const before = await senderOf(ctx.db, p.eventID, p.personID);
    if (before[0].senderEmail === '') throw badRequest('senderEmail is not set; set it with event.sender.edit first');
    const row = await startCheck(ctx.db, p.eventID, p.personID);
    await ctx.jobs.add(ctx.db, SENDER_CHECK_JOB, { senderID: row!.senderID, email: row!.senderEmail });
    return senderOf(ctx.db, p.eventID, p.personID);
  },
});

export const senderOperations: readonly AnyOperation[] = [senderEdit, senderFind, senderGet, senderRefresh];
