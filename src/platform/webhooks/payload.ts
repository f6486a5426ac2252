import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Config } from '../config.ts';
import { createDispatcher } from '../kernel/dispatch.ts';
import type { AnyOperation } from '../kernel/table.ts';
import { createCounter } from '../limits/counter.ts';
import { createStreamHub } from '../stream/hub.ts';
import type { FeedChange, WebhookRow } from '../resources/webhook/repository.ts';
import { typeOf } from '../resources/webhook/fields.ts';

// The body of a change's delivery (docs/webhooks.md "Payload"): the type, the change, the ids the call
// named, and the object as its `.get` operation shows it — read through the operation table as the
// person who registered the webhook, so a webhook never shows more than its owner may read (an owner
// who lost the rights gets ids without the object). Every value is a string, like every answer; a
// body over 20 KB goes without its object.

export const MAX_BODY = 20 * 1024;

/** What a payload says of its change: the feeder's row less whether the call asked for quiet. */
export type ChangeFacts = Omit<FeedChange, 'quiet'>;

const NO_LOG = { error() {}, warn() {}, info() {} };

/** Reads objects as a webhook's owner would: a dispatcher of its own over the store (no HTTP, no limits). */
export function objectReader(db: Kysely<DB>, config: Config) {
  const streams = createStreamHub({ db, max: 1, heartbeatMs: 3_600_000 });
  // The operation table is loaded at the first delivery, not when a worker starts (a worker that
  // delivers nothing does not hold it: docs/api/reports.md "Memory").
  let table: Promise<{ dispatcher: ReturnType<typeof createDispatcher>; byName: Map<string, AnyOperation> }>;
  const tableOf = () =>
    (table ??= import('../catalog/index.ts').then(({ operations }) => ({
      dispatcher: createDispatcher({
        db,
        config,
        counter: createCounter(),
        jobs: { add: async () => false },
        operations,
        streams,
        log: NO_LOG,
      }),
      byName: new Map(operations.map((op) => [op.name, op])),
    })));
  /** The `.get` of `kind` and its query for `ids`; undefined when the kind has none. */
  async function getOf(kind: string, ids: Record<string, number>) {
    const name = kind === 'company.event' ? 'event.get' : `${kind}.get`;
    const op = (await tableOf()).byName.get(name);
    if (!op) return undefined;
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(ids)) if (k in op.params) query[k] = String(v);
    return { name, query };
  }
  async function read(name: string, query: Record<string, string>, personID: number) {
    const answer = await (
      await tableOf()
    ).dispatcher.answer({
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
  }
  /** A reader; with `memo`, each object is read once for all who ask (a batch of deliveries). */
  const readerOf = (memo?: Map<string, Promise<Record<string, unknown> | undefined>>): ObjectReader => ({
    /** The object of `kind` the ids name, as `.get` answers it to `personID`; undefined when it cannot be read. */
    async read(kind, ids, personID) {
      const get = await getOf(kind, ids);
      if (!get) return undefined;
      if (!memo) return read(get.name, get.query, personID);
      const key = JSON.stringify([get.name, get.query, personID]);
      let object = memo.get(key);
      if (!object) memo.set(key, (object = read(get.name, get.query, personID)));
      return object;
    },
    // Only for reads that all start after the changes they show committed: one batch's.
    shared: () => readerOf(new Map()),
    warm: async () => void (await tableOf()),
    close: () => streams.close(),
  });
  return readerOf();
}

export interface ObjectReader {
  read(kind: string, ids: Record<string, number>, personID: number): Promise<Record<string, unknown> | undefined>;
  /** A reader that reads each object once for all who ask it (a batch: the memo goes with it). */
  shared(): ObjectReader;
  /** Loads the operation table now (it takes a second or two), rather than at the first delivery. */
  warm(): Promise<void>;
  close(): void;
}

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
