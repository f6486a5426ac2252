import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Config } from '../config.ts';
import { createDispatcher } from '../kernel/dispatch.ts';
import { operations } from '../catalog/index.ts';
import { createCounter } from '../limits/counter.ts';
import { createStreamHub } from '../stream/hub.ts';
import type { FeedChange, WebhookRow } from '../resources/webhook/repository.ts';

// The body of a change's delivery (docs/webhooks.md "Payload"): the type, the change, the ids the call
// named, and the object as its `.get` operation shows it — read through the operation table as the
// person who registered the webhook, so a webhook never shows more than its owner may read (an owner
// who lost the rights gets ids without the object). Every value is a string, like every answer; a
// body over 20 KB goes without its object.

export const MAX_BODY = 20 * 1024;

/** The type a change is delivered as: the operation that caused it (a registration is an attendee bound). */
export function typeOf(operation: string): string {
  return operation === 'form.respondRegistration' ? 'event.person.bind' : operation;
}

/**
 * Writes that are no one's news: a webhook's own set-up, and private messages between people (chat.*:
 * the company is not told who wrote to whom; the receiver hears chat/send, docs/api/chat.md).
 */
export const isDelivered = (operation: string): boolean =>
  !operation.startsWith('webhook.') && !operation.startsWith('chat.');

/** What a payload says of its change: the feeder's row less whether the call asked for quiet. */
export type ChangeFacts = Omit<FeedChange, 'quiet'>;

const NO_LOG = { error() {}, warn() {}, info() {} };

/** Reads objects as a webhook's owner would: a dispatcher of its own over the store (no HTTP, no limits). */
export function objectReader(db: Kysely<DB>, config: Config) {
  const streams = createStreamHub({ db, max: 1, heartbeatMs: 3_600_000 });
  const dispatcher = createDispatcher({
    db,
    config,
    counter: createCounter(),
    jobs: { add: async () => false },
    operations,
    streams,
    log: NO_LOG,
  });
  const names = new Set(operations.map((op) => op.name));
  return {
    /** The object of `kind` the ids name, as `.get` answers it to `personID`; undefined when it cannot be read. */
    async read(
      kind: string,
      ids: Record<string, number>,
      personID: number,
    ): Promise<Record<string, unknown> | undefined> {
      const name = kind === 'company.event' ? 'event.get' : `${kind}.get`;
      if (!names.has(name)) return undefined;
      const op = operations.find((o) => o.name === name)!;
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(ids)) if (k in op.params) query[k] = String(v);
      const answer = await dispatcher.answer({
        name,
        method: 'GET',
        rawQuery: '',
        query,
        body: undefined,
        authorization: undefined,
        clientIp: '127.0.0.1',
        // No token behind it: a hash no token has, and no expiry within the read.
        as: {
          personID,
          scope: 'system',
          targetID: 0,
          operator: false,
          tokenHash: '',
          expiresAt: Number.MAX_SAFE_INTEGER,
        },
      });
      if (answer.status !== 200) return undefined;
      const text = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
      return (JSON.parse(text) as { data: Record<string, unknown>[] }).data[0];
    },
    close: () => streams.close(),
  };
}
export type ObjectReader = ReturnType<typeof objectReader>;

/** The JSON body of `change` for webhook `w`. */
export async function changeBody(reader: ObjectReader, w: WebhookRow, c: ChangeFacts): Promise<string> {
  const ids: Record<string, number> = c.ids ? (JSON.parse(c.ids) as Record<string, number>) : {};
  if (c.eventID !== null) ids.eventID ??= c.eventID;
  const head = {
    type: typeOf(c.operation),
    changeID: String(c.changeID),
    companyID: c.companyID === null ? '' : String(c.companyID),
    eventID: c.eventID === null ? '' : String(c.eventID),
    at: String(Math.floor(c.at / 1000)),
    ids: Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)])),
  };
  const object = await reader.read(c.kind, ids, w.personID).catch(() => undefined);
  const body = JSON.stringify({ ...head, object: object ?? {} });
  return Buffer.byteLength(body) <= MAX_BODY
    ? body
    : JSON.stringify({ ...head, object: {}, objectOmitted: 'too large' });
}
