import { z } from 'zod';
import {
  ANY_LEVEL,
  b,
  defineOperation,
  pageOf,
  pageParams,
  q,
  qOpt,
  type AnyOperation,
  type Context,
} from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { isEventAdmin } from '../../../kernel/call.ts';
import { chatViewWire, chatWire, type Chat } from '../../../../shared/wire/chat.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { sanitizeUserText } from '../../html.ts';
import {
  chatByID,
  chatsByID,
  contacts,
  conversation,
  insertChat,
  markViewed,
  hasWritten,
  memberOf,
  namesOf,
  personNames,
  type ChatRow,
  type Member,
} from '../repository.ts';
import { checkMessage, tooManyMessages } from '../rules.ts';

/** Spec §8: a chat message is at most 200 characters. */
export const MESSAGE_MAX = 200;
const MINUTE_MS = 60_000;

const me = (ctx: Context) => ctx.caller!.personID;

/** A message as the caller sees it: the other person named, `unread` given in the list of conversations only. */
function chatRecord(r: ChatRow, viewer: number, names: Map<number, string>, unread = ''): Chat {
  const other = r.senderID === viewer ? r.receiverID : r.senderID;
  return {
    chatID: String(r.chatID),
    senderID: String(r.senderID),
    receiverID: String(r.receiverID),
    eventID: String(r.eventID),
    message: r.message,
    date: String(r.date),
    viewed: String(r.viewed),
    personID: String(other),
    personName: names.get(other) ?? '',
    unread,
  };
}

/**
 * The other person of a conversation: registered in the event, or someone who wrote to the caller there
 * (an organizer who is not registered: they can be answered); anyone else is the 404 of an unknown person.
 */
async function otherPerson(ctx: Context, eventID: number, personID: number): Promise<Member | undefined> {
  const other = await memberOf(ctx.db, eventID, personID);
  if (other) return other;
  if (await hasWritten(ctx.db, eventID, personID, me(ctx))) {
    const names = await personNames(ctx.db, [personID]);
    return { personID, private: 0, name: names.get(personID) ?? '' };
  }
  return undefined;
}

const chatCreate = defineOperation({
  name: 'chat.create',
  summary:
    'Sends a chat message (at most 200 characters, plain text) to a person of the event; they hear it on the chat/send push channel.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'who the message is for: a person of the event who has not made their profile private'),
    message: b(
      z.string().max(MESSAGE_MAX, `must be at most ${MESSAGE_MAX} characters`),
      `the text, at most ${MESSAGE_MAX} characters; markup is removed`,
    ),
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: true,
  answer: chatWire,
  async handler(ctx, p) {
    const sender = me(ctx);
    const [from, to, replying] = await Promise.all([
      memberOf(ctx.db, p.eventID, sender),
      otherPerson(ctx, p.eventID, p.personID),
      hasWritten(ctx.db, p.eventID, p.personID, sender),
    ]);
    checkMessage(sender, from, to, isEventAdmin(ctx), replying);
    const message = sanitizeUserText(p.message);
    if (message === '') throw badRequest('message cannot be empty');
    // A sandbox call writes nothing, so it spends no allowance either.
    if (!ctx.sandbox) {
      const { count, resetMs } = await ctx.counter.hit(`chat:${p.eventID}:${sender}`, MINUTE_MS);
      if (count > ctx.config.CHAT_PER_MINUTE) throw tooManyMessages(resetMs);
    }
    const row = await insertChat(ctx.db, {
      eventID: p.eventID,
      senderID: sender,
      receiverID: p.personID,
      message,
      date: ctx.now,
    });
    // The id as a number: the change log takes the new message as the object of this write (chat/send reads it).
    return [{ ...chatRecord(row, sender, new Map([[p.personID, to!.name]])), chatID: row.chatID }];
  },
});

const chatFind = defineOperation({
  name: 'chat.find',
  summary:
    'With personID: the messages between the caller and that person, newest first. Without: the people the caller has chatted with, each with the newest message and the unread count.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: qOpt(id, 'the other person of the conversation; left out: every conversation of the caller'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  answer: chatWire,
  async handler(ctx, p) {
    const viewer = me(ctx);
    if (p.personID !== undefined) {
      const other = await otherPerson(ctx, p.eventID, p.personID);
      if (!other) throw notFound('person');
      const page = await conversation(ctx.db, p.eventID, viewer, p.personID, pageOf(p));
      const names = new Map([[p.personID, other.name]]);
      const shape = (rows: ChatRow[]) => rows.map((r) => chatRecord(r, viewer, names));
      return Array.isArray(page) ? shape(page) : { rows: shape(page.rows), total: page.total };
    }
    const page = await contacts(ctx.db, p.eventID, viewer, pageOf(p));
    const list = Array.isArray(page) ? page : page.rows;
    const [chats, names] = await Promise.all([
      chatsByID(
        ctx.db,
        list.map((c) => c.lastChatID),
      ),
      namesOf(
        ctx.db,
        p.eventID,
        list.map((c) => c.personID),
      ),
    ]);
    const rows = list.map((c) => chatRecord(chats.get(c.lastChatID)!, viewer, names, String(c.unread)));
    return Array.isArray(page) ? rows : { rows, total: page.total };
  },
});

const chatGet = defineOperation({
  name: 'chat.get',
  summary: 'Reads one chat message; only its sender and its receiver see it (anyone else: 404).',
  methods: ['GET'],
  params: { chatID: q(id, 'the message') },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['chatID'] },
  writes: false,
  answer: chatWire,
  async handler(ctx, p) {
    const viewer = me(ctx);
    const row = await chatByID(ctx.db, p.chatID);
    if (!row || (row.senderID !== viewer && row.receiverID !== viewer)) throw notFound('chat');
    const other = row.senderID === viewer ? row.receiverID : row.senderID;
    return [chatRecord(row, viewer, await namesOf(ctx.db, row.eventID, [other]))];
  },
});

const chatView = defineOperation({
  name: 'chat.view',
  summary: "Marks the caller's conversation with a person as read: every message that person sent the caller.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the other person of the conversation'),
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: true,
  answer: chatViewWire,
  async handler(ctx, p) {
    if (!(await otherPerson(ctx, p.eventID, p.personID))) throw notFound('person');
    const viewed = await markViewed(ctx.db, p.eventID, me(ctx), p.personID);
    return [{ eventID: String(p.eventID), personID: String(p.personID), viewed: String(viewed) }];
  },
});

/** Chat (spec §4.8, docs/api/chat.md). */
export const chatOperations: readonly AnyOperation[] = [chatCreate, chatFind, chatGet, chatView];
