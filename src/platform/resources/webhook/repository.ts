import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, WebhookDeliveryTable, WebhookTable } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { isPostgres } from '../../db/connect.ts';

// The store of webhooks (migration 0009): registrations, their deliveries and every attempt.

export type WebhookRow = Selectable<WebhookTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
export type AttemptRow = { at: number; status: number; latencyMs: number; response: string };

const num = <T extends Record<string, unknown>>(row: T, ...keys: (keyof T)[]): T => {
  const out = { ...row };
  for (const k of keys) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]) as T[typeof k];
  return out;
};
const webhookOf = (r: WebhookRow): WebhookRow =>
  num(r, 'webhookID', 'oldSecretUntil', 'createdAt', 'failingSince', 'companyID', 'eventID', 'personID');
const deliveryOf = (r: DeliveryRow): DeliveryRow =>
  num(r, 'deliveryID', 'webhookID', 'changeID', 'createdAt', 'nextAt');

export async function insertWebhook(
  db: Kysely<DB>,
  values: Omit<WebhookRow, 'webhookID' | 'disabledReason' | 'oldSecret' | 'oldSecretUntil' | 'failingSince'>,
): Promise<WebhookRow> {
  const row = await db.insertInto('webhook').values(values).returningAll().executeTakeFirstOrThrow();
  return webhookOf(row);
}

export async function webhookByID(db: Kysely<DB>, webhookID: number): Promise<WebhookRow | undefined> {
  const row = await db.selectFrom('webhook').selectAll().where('webhookID', '=', webhookID).executeTakeFirst();
  return row && webhookOf(row);
}

/** A company's webhooks (all of them, or one event's), oldest first. */
export async function webhooksOf(
  db: Kysely<DB>,
  companyID: number,
  eventID: number | undefined,
  page: Page,
): Promise<Paged<WebhookRow>> {
  let q = db.selectFrom('webhook').selectAll().where('companyID', '=', companyID);
  if (eventID !== undefined) q = q.where('eventID', '=', eventID);
  return readPage(db, q.orderBy('webhookID'), page, (rows) => rows.map(webhookOf));
}

export async function updateWebhook(
  db: Kysely<DB>,
  webhookID: number,
  patch: Partial<Omit<WebhookRow, 'webhookID' | 'companyID' | 'eventID'>>,
): Promise<void> {
  await db.updateTable('webhook').set(patch).where('webhookID', '=', webhookID).execute();
}

/** Removes a webhook with its deliveries and their attempts. */
export async function removeWebhook(db: Kysely<DB>, webhookID: number): Promise<void> {
  const deliveries = db.selectFrom('webhookDelivery').select('deliveryID').where('webhookID', '=', webhookID);
  await db.deleteFrom('webhookAttempt').where('deliveryID', 'in', deliveries).execute();
  await db.deleteFrom('webhookDelivery').where('webhookID', '=', webhookID).execute();
  await db.deleteFrom('webhook').where('webhookID', '=', webhookID).execute();
}

/** The webhooks, on or off, that may hear of a change of this company (and event). */
/** Whether the store has any webhook at all (a worker then loads what deliveries need at start). */
export async function hasWebhooks(db: Kysely<DB>): Promise<boolean> {
  return (await db.selectFrom('webhook').select('webhookID').limit(1).executeTakeFirst()) !== undefined;
}

export async function webhooksFor(db: Kysely<DB>, companyID: number): Promise<WebhookRow[]> {
  const rows = await db.selectFrom('webhook').selectAll().where('companyID', '=', companyID).execute();
  return rows.map(webhookOf);
}

/**
 * Adds a delivery; answers its id, or undefined when the webhook has one for this change already
 * (another feeder, or this one again after a crash, got there first).
 */
export async function insertDelivery(
  db: Kysely<DB>,
  values: Pick<DeliveryRow, 'webhookID' | 'changeID' | 'type' | 'payload' | 'createdAt' | 'nextAt'>,
): Promise<number | undefined> {
  const row = await db
    .insertInto('webhookDelivery')
    .values({ ...values, state: 'pending' })
    .onConflict((oc) => oc.columns(['webhookID', 'changeID']).doNothing())
    .returning('deliveryID')
    .executeTakeFirst();
  return row ? Number(row.deliveryID) : undefined;
}

/** A delivery as the feeder makes it. */
export type DeliveryValues = Pick<
  DeliveryRow,
  'webhookID' | 'changeID' | 'type' | 'payload' | 'createdAt' | 'nextAt' | 'state'
>;

/** Adds deliveries in one statement; answers the ids of those added (a pair already there adds nothing). */
export async function insertDeliveries(db: Kysely<DB>, rows: readonly DeliveryValues[]): Promise<number[]> {
  if (rows.length === 0) return [];
  if (isPostgres(db)) {
    // Arrays as parameters: one statement text whatever the number of rows (see recordDelivered).
    const col = <K extends keyof DeliveryValues>(k: K) => rows.map((r) => r[k]);
    const { rows: added } = await sql<{ deliveryID: number }>`
      insert into "webhookDelivery" ("webhookID", "changeID", "type", "payload", "createdAt", "nextAt", "state")
      select * from unnest(${col('webhookID')}::bigint[], ${col('changeID')}::bigint[], ${col('type')}::text[],
        ${col('payload')}::text[], ${col('createdAt')}::bigint[], ${col('nextAt')}::bigint[], ${col('state')}::text[])
      on conflict ("webhookID", "changeID") do nothing
      returning "deliveryID"`.execute(db);
    return added.map((r) => Number(r.deliveryID));
  }
  const added = await db
    .insertInto('webhookDelivery')
    .values([...rows])
    .onConflict((oc) => oc.columns(['webhookID', 'changeID']).doNothing())
    .returning('deliveryID')
    .execute();
  return added.map((r) => Number(r.deliveryID));
}

export async function deliveryByID(db: Kysely<DB>, deliveryID: number): Promise<DeliveryRow | undefined> {
  const row = await db
    .selectFrom('webhookDelivery')
    .selectAll()
    .where('deliveryID', '=', deliveryID)
    .executeTakeFirst();
  return row && deliveryOf(row);
}

/** Deliveries by id, in one statement (the worker's batch of jobs); unknown ids are left out. */
export async function deliveriesByID(db: Kysely<DB>, ids: readonly number[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return [];
  // In id order: PostgreSQL returns an updated table's rows in whatever order they now lie on disk.
  const rows = await db
    .selectFrom('webhookDelivery')
    .selectAll()
    .where('deliveryID', 'in', ids)
    .orderBy('deliveryID')
    .execute();
  return rows.map(deliveryOf);
}

/** Webhooks by id, in one statement; unknown ids are left out. */
export async function webhooksByID(db: Kysely<DB>, ids: readonly number[]): Promise<WebhookRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('webhook').selectAll().where('webhookID', 'in', ids).execute();
  return rows.map(webhookOf);
}

/**
 * Logs a first-time success of several deliveries: their attempts, and the deliveries settled as
 * delivered (with the body each first attempt made, where it made one) — one statement on PostgreSQL,
 * two on SQLite.
 */
export async function recordDelivered(
  db: Kysely<DB>,
  done: readonly { deliveryID: number; attempt: AttemptRow; payload?: string }[],
): Promise<void> {
  if (done.length === 0) return;
  if (isPostgres(db)) {
    // One statement of a fixed text whatever the batch (arrays as parameters): parsed and planned
    // cheaply, where a VALUES list and a CASE of one branch per delivery grow with the batch.
    await sql`with attempt as (
        insert into "webhookAttempt" ("deliveryID", "at", "status", "latencyMs", "response")
        select * from unnest(${done.map((d) => d.deliveryID)}::bigint[], ${done.map((d) => d.attempt.at)}::bigint[],
          ${done.map((d) => d.attempt.status)}::int[], ${done.map((d) => d.attempt.latencyMs)}::int[],
          ${done.map((d) => d.attempt.response)}::text[]))
      update "webhookDelivery" as d
      set "state" = 'delivered', "nextAt" = null, "attempts" = d."attempts" + 1,
        "payload" = coalesce(v."payload", d."payload")
      from unnest(${done.map((d) => d.deliveryID)}::bigint[], ${done.map((d) => d.payload ?? null)}::text[])
        as v("deliveryID", "payload")
      where d."deliveryID" = v."deliveryID"`.execute(db);
    return;
  }
  await db
    .insertInto('webhookAttempt')
    .values(done.map((d) => ({ deliveryID: d.deliveryID, ...d.attempt })))
    .execute();
  const [first, ...more] = done.filter((d) => d.payload !== undefined);
  await db
    .updateTable('webhookDelivery')
    .set((eb) => {
      if (!first) return { state: 'delivered', nextAt: null, attempts: eb('attempts', '+', 1) };
      // Each delivery's own body: one CASE on the id, the others keep theirs.
      let payload = eb.case().when('deliveryID', '=', first.deliveryID).then(first.payload!);
      for (const d of more) payload = payload.when('deliveryID', '=', d.deliveryID).then(d.payload!);
      return {
        state: 'delivered',
        nextAt: null,
        attempts: eb('attempts', '+', 1),
        payload: payload.else(eb.ref('payload')).end(),
      };
    })
    .where(
      'deliveryID',
      'in',
      done.map((d) => d.deliveryID),
    )
    .execute();
}

export type DeliverySelection = 'all' | 'failed' | 'pending' | 'held';

/** A webhook's deliveries, newest first, each with its attempts (oldest first). */
export async function deliveriesOf(
  db: Kysely<DB>,
  webhookID: number,
  selection: DeliverySelection,
  page: Page,
): Promise<Paged<DeliveryRow & { attemptList: AttemptRow[] }>> {
  let q = db.selectFrom('webhookDelivery').selectAll().where('webhookID', '=', webhookID);
  if (selection !== 'all') q = q.where('state', '=', selection);
  return readPage(db, q.orderBy('deliveryID', 'desc'), page, async (rows) => {
    const list = rows.map(deliveryOf);
    const attempts = list.length
      ? await db
          .selectFrom('webhookAttempt')
          .select(['deliveryID', 'at', 'status', 'latencyMs', 'response'])
          .where(
            'deliveryID',
            'in',
            list.map((d) => d.deliveryID),
          )
          .orderBy('attemptID')
          .execute()
      : [];
    return list.map((d) => ({
      ...d,
      attemptList: attempts
        .filter((a) => Number(a.deliveryID) === d.deliveryID)
        .map((a) => ({ at: Number(a.at), status: a.status, latencyMs: a.latencyMs, response: a.response })),
    }));
  });
}

/** Logs one attempt and settles the delivery: `next` is when to try again (undefined: settled as `state`). */
export async function recordAttempt(
  db: Kysely<DB>,
  deliveryID: number,
  attempt: AttemptRow,
  outcome: { state: DeliveryRow['state']; nextAt: number | null },
  /** The body, when this attempt made it (stored once, sent as is by every later attempt). */
  payload?: string,
): Promise<void> {
  await db
    .insertInto('webhookAttempt')
    .values({ deliveryID, ...attempt })
    .execute();
  await db
    .updateTable('webhookDelivery')
    .set((e) => ({
      state: outcome.state,
      nextAt: outcome.nextAt,
      attempts: e('attempts', '+', 1),
      ...(payload === undefined ? {} : { payload }),
    }))
    .where('deliveryID', '=', deliveryID)
    .execute();
}

/** Keeps the body of a held delivery (made for webhook.events; it is never sent). */
export async function storePayload(db: Kysely<DB>, deliveryID: number, payload: string): Promise<void> {
  await db
    .updateTable('webhookDelivery')
    .set({ payload })
    .where('deliveryID', '=', deliveryID)
    .where('payload', '=', '')
    .execute();
}

/** Makes a delivery due again (webhook.delivery.retry): a new run of attempts. */
export async function requeueDelivery(db: Kysely<DB>, deliveryID: number, at: number): Promise<void> {
  await db
    .updateTable('webhookDelivery')
    .set({ state: 'pending', nextAt: at, attempts: 0 })
    .where('deliveryID', '=', deliveryID)
    .execute();
}

/** The deliveries of changes after `afterChangeID`, in change order: the catch-up of webhook.events. */
export async function deliveriesAfter(
  db: Kysely<DB>,
  webhookID: number,
  afterChangeID: number,
  limit: number,
): Promise<DeliveryRow[]> {
  const rows = await db
    .selectFrom('webhookDelivery')
    .selectAll()
    .where('webhookID', '=', webhookID)
    .where('changeID', '>', afterChangeID)
    .orderBy('changeID')
    .limit(limit)
    .execute();
  return rows.map(deliveryOf);
}

/** Forgets deliveries (and their attempts) made before `beforeMs`; answers how many went. */
export async function pruneDeliveries(db: Kysely<DB>, beforeMs: number): Promise<number> {
  const old = db.selectFrom('webhookDelivery').select('deliveryID').where('createdAt', '<', beforeMs);
  await db.deleteFrom('webhookAttempt').where('deliveryID', 'in', old).execute();
  const r = await db.deleteFrom('webhookDelivery').where('createdAt', '<', beforeMs).executeTakeFirst();
  return Number(r.numDeletedRows);
}

// The feeder's side: where it stands in the change log, and the changes with what a delivery needs.

export interface FeedChange {
  readonly changeID: number;
  readonly at: number;
  readonly operation: string;
  readonly kind: string;
  readonly companyID: number | null;
  readonly eventID: number | null;
  readonly objectID: number | null;
  readonly ids: string;
  readonly quiet: number;
}

export async function feedChangesSince(db: Kysely<DB>, afterID: number, limit: number): Promise<FeedChange[]> {
  const rows = await db
    .selectFrom('change')
    .select(['changeID', 'at', 'operation', 'kind', 'companyID', 'eventID', 'objectID', 'ids', 'quiet'])
    .where('changeID', '>', afterID)
    .orderBy('changeID')
    .limit(limit)
    .execute();
  return rows.map((r) => num(r, 'changeID', 'at', 'objectID'));
}

export async function feedChangesIn(db: Kysely<DB>, ids: readonly number[]): Promise<FeedChange[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('change')
    .select(['changeID', 'at', 'operation', 'kind', 'companyID', 'eventID', 'objectID', 'ids', 'quiet'])
    .where('changeID', 'in', ids)
    .orderBy('changeID')
    .execute();
  return rows.map((r) => num(r, 'changeID', 'at', 'objectID'));
}

export interface FeedPosition {
  readonly lastID: number;
  /** [id, noticedMs] of ids below lastID not seen yet. */
  readonly gaps: [number, number][];
}

/**
 * The feeder's position, locked for the transaction: on PostgreSQL another process's feeder skips its
 * round (undefined) rather than wait; on SQLite the write transaction holds the store already.
 */
export async function lockFeed(db: Kysely<DB>, postgres: boolean, feed = 'main'): Promise<FeedPosition | undefined> {
  let q = db.selectFrom('webhookFeed').select(['lastID', 'gaps']).where('name', '=', feed);
  if (postgres) q = q.forUpdate().skipLocked();
  const row = await q.executeTakeFirst();
  return row && { lastID: Number(row.lastID), gaps: JSON.parse(row.gaps) as [number, number][] };
}

/** Moves the feed; with `from`, only if it is still there (compare and set): answers whether it moved. */
export async function moveFeed(db: Kysely<DB>, feed: string, to: FeedPosition, from?: FeedPosition): Promise<boolean> {
  let q = db
    .updateTable('webhookFeed')
    .set({ lastID: to.lastID, gaps: JSON.stringify(to.gaps) })
    .where('name', '=', feed);
  if (from) q = q.where('lastID', '=', from.lastID).where('gaps', '=', JSON.stringify(from.gaps));
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The registering person's operator flag (payload reads run with that person's rights). */
export async function isOperator(db: Kysely<DB>, personID: number): Promise<boolean> {
  const row = await db.selectFrom('person').select('operator').where('personID', '=', personID).executeTakeFirst();
  return row?.operator === 1;
}
