import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobQueue } from '../../jobs/queue.ts';
import type { Message, Outbox } from '../../mail/outbox.ts';
import { htmlToText } from '../../../shared/schedule/text.ts';
import { eventLink, oneLine, senderOf } from './compose.ts';
import { deliver, type DeliverOptions } from './deliver.ts';
import { merge } from './merge.ts';
import { emailByID, recipientOf, recipientsAfter } from './repository.ts';
import { openLink, unsubscribeLink } from './unsubscribe.ts';
import { eventSenders } from '../sender/repository.ts';

// event.email.dispatch as durable jobs (issue 15, outcome 3):
//
// - `email.dispatch` takes the next batch of recipients after the e-mail's cursor and, in one
//   transaction, adds one `email.send` per recipient (spread over time at the event's rate) and moves
//   the cursor on; then it adds itself for the next batch. A worker killed mid-batch rolls the batch
//   back whole, and the job, run again, starts from the same cursor: resumable, nobody skipped.
// - `email.send` sends one recipient's message through deliver(): its log row's idem
//   `email:<eventEmailID>:<personID>` makes a second run (a crash after the send, a job added twice)
//   send nothing. A suppressed recipient is skipped and logged.

export const DISPATCH_JOB = 'email.dispatch';
export const SEND_MAIL_JOB = 'email.send';

export interface BulkOptions extends DeliverOptions {
  /** Recipients per dispatch batch. */
  readonly batch: number;
  /** Messages per second one event's dispatch sends (its sends are spread at this rate). */
  readonly rate: number;
  readonly siteUrl: string;
  readonly apiUrl: string;
  readonly mailFrom: string;
}

interface DispatchPayload {
  readonly eventEmailID: number;
}
interface SendPayload {
  readonly eventEmailID: number;
  readonly personID: number;
  /** event.email.try: one test to this person, logged as kind 'test' under its own idem. */
  readonly test?: string;
}

export function dispatchHandler(db: Kysely<DB>, queue: Pick<JobQueue, 'add'>, o: BulkOptions): JobHandler {
  return async ({ eventEmailID }: DispatchPayload) => {
    await db.transaction().execute(async (trx) => {
      const e = await emailByID(trx, eventEmailID);
      if (!e || e.state !== 'dispatching') return;
      const ids = await recipientsAfter(trx, e.eventID, e.listID, e.cursor, o.batch);
      const start = Date.now();
      const spacing = 1000 / Math.max(1, o.rate);
      for (const [i, personID] of ids.entries())
        await queue.add(trx, SEND_MAIL_JOB, { eventEmailID, personID }, {
          key: `${eventEmailID}:${personID}`,
          runAt: new Date(start + i * spacing),
        }); // prettier-ignore
      const cursor = ids.at(-1) ?? e.cursor;
      const done = ids.length < o.batch;
      await trx
        .updateTable('eventEmail')
        .set({ cursor, state: done ? 'dispatched' : 'dispatching' })
        .where('eventEmailID', '=', eventEmailID)
        .execute();
      if (!done)
        await queue.add(trx, DISPATCH_JOB, { eventEmailID }, {
          key: `${eventEmailID}:${cursor}`,
          runAt: new Date(start + ids.length * spacing),
        }); // prettier-ignore
    });
  };
}

/** What every message of one custom e-mail shares: the e-mail, its event, the event's senders. */
async function emailContext(db: Kysely<DB>, eventEmailID: number) {
  const e = await emailByID(db, eventEmailID);
  if (!e) return undefined;
  const event = await db
    .selectFrom('event')
    .innerJoin('company', 'company.companyID', 'event.companyID')
    .select([
      'event.name as eventName',
      'event.nickname',
      'event.cname',
      'event.emailAddress',
      'event.emailName',
      'company.namespace',
    ]) // prettier-ignore
    .where('event.eventID', '=', e.eventID)
    .executeTakeFirst();
  if (!event) return undefined;
  return { e, event, senders: await eventSenders(db, e.eventID, event.emailAddress) };
}

/**
 * How long a worker reuses one e-mail's shared context across its messages. A dispatched e-mail's text
 * cannot change (event.email.edit refuses once it is dispatched); the event's name or sender changed
 * mid-dispatch reaches the messages sent a few seconds later. Saves four reads per message.
 */
const CONTEXT_MS = 5000;

export function sendMailHandler(db: Kysely<DB>, outbox: Outbox, o: BulkOptions): JobHandler {
  const contexts = new Map<number, { at: number; value: ReturnType<typeof emailContext> }>();
  const contextOf = (eventEmailID: number) => {
    const now = Date.now();
    for (const [k, v] of contexts) if (now - v.at > CONTEXT_MS) contexts.delete(k);
    let c = contexts.get(eventEmailID);
    if (!c) {
      c = { at: now, value: emailContext(db, eventEmailID) };
      contexts.set(eventEmailID, c);
      c.value.catch(() => contexts.delete(eventEmailID));
    }
    return c.value;
  };
  return async ({ eventEmailID, personID, test }: SendPayload) => {
    // A test (event.email.try) reads the draft as it is now.
    const context = test ? await emailContext(db, eventEmailID) : await contextOf(eventEmailID);
    if (!context) return;
    const { e, event, senders } = context;
    const who = await recipientOf(db, e.eventID, personID);
    if (!event || !who || !who.email.includes('@')) return;
    const start = {
      eventID: e.eventID,
      personID,
      eventEmailID,
      kind: test ? ('test' as const) : ('custom' as const),
      idem: test ? `test:${eventEmailID}:${personID}:${test}` : `email:${eventEmailID}:${personID}`,
      to: who.email,
    };
    const compose = async (emailLogID: number): Promise<Message> => {
      const unsubscribe = await unsubscribeLink(db, o.apiUrl, e.eventID, who.email);
      const values = {
        firstName: who.firstName,
        lastName: who.lastName,
        name: who.name,
        email: who.email,
        eventName: event.eventName,
        eventLink: eventLink(event, o.siteUrl),
        qrCode: who.qrCode,
        unsubscribeLink: unsubscribe,
      };
      // The open-tracking pixel, only when the organizer turned it on for this e-mail (off by default).
      const pixel =
        e.tracking === 1
          ? `<img src="${(await openLink(db, o.apiUrl, emailLogID)).replace(/&/g, '&amp;')}" width="1" height="1" alt="" style="display:block;border:0">`
          : '';
      const body = merge(e.text, values, true);
      return {
        to: who.email,
        ...senderOf(event, o.mailFrom, senders),
        subject: oneLine(merge(e.subject, values, false)),
        html: `<!doctype html><html><body>${body}<p style="font-size:.85em;color:#555"><a href="${unsubscribe.replace(/&/g, '&amp;')}">Unsubscribe</a></p>${pixel}</body></html>`,
        text: `${htmlToText(body)}\n\n--\nUnsubscribe: ${unsubscribe}`,
        // RFC 8058 one-click: a mail client POSTs List-Unsubscribe=One-Click to the link.
        headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      };
    };
    await deliver(db, outbox, start, compose, o);
  };
}
