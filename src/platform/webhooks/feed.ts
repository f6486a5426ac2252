import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { startRounds, type Rounds } from '../jobs/rounds.ts';
import {
  webhooksFor,
  feedChangesIn,
  feedChangesSince,
  insertDeliveries,
  lockFeed,
  moveFeed,
  type DeliveryValues,
  type FeedChange,
  type FeedPosition,
  type WebhookRow,
} from '../resources/webhook/repository.ts';
import { hears, isDelivered, typeOf } from '../resources/webhook/fields.ts';
import { DELIVER_BATCH_JOB } from '../resources/webhook/sign.ts';
import { CONFIRM_JOB, confirmationJobs } from '../resources/email/confirmation.ts';

// The feeder: the change log becomes deliveries — and registrations' confirmation e-mails
// (resources/email/confirmation.ts) —, never inside the request that wrote. It runs in the
// processes that run jobs, on a timer and whenever the bus tells of a change, one round at a time
// across processes (the feed row is locked for the round; on PostgreSQL a second process skips the
// round instead of waiting). A round takes the changes after the feed's position, makes a delivery
// for each webhook that hears each change — and a DELIVER_BATCH_JOB per batch of them —, and moves the
// position, all in one transaction, so a change is fed once (and a crash mid-round feeds it again, never half).
//
// On PostgreSQL a transaction may take a change id and commit after a higher one was fed: the ids the
// round jumped over are kept as gaps and looked for again for GAP_MS (a gap that never fills was a
// rolled-back write). The (webhook, change) pair is unique in the store, so feeding twice is harmless.
//
// A webhook that is off (paused, or turned off by a 410 or five days of failures) still gets its
// deliveries, `held`: never sent, but their payloads are made like any other, so that a receiver that
// was down long enough to be turned off catches up with webhook.events, change by change.

const PAGE = 200;
/**
 * Deliveries per batch job, about: enough that pg-boss's fetch and completion are a small share of a
 * delivery, few enough that the batches of a round spread over the workers.
 */
const BATCH = 50;
const GAP_MS = 30_000;
const MAX_GAPS = 10_000;

export interface FeedDeps {
  readonly db: Kysely<DB>;
  readonly postgres: boolean;
  readonly queue: Pick<JobQueue, 'addMany'>;
  readonly now: () => number;
}

/** One round; answers how many changes it read (a full page asks for another round at once). */
export async function feedRound(d: FeedDeps): Promise<number> {
  // On SQLite, first without a transaction: most rounds have nothing any webhook hears, and then the
  // position moves by one compare-and-set UPDATE (a write transaction holds the store's write lock:
  // taken on every change by every process, it would make them queue for nothing). On PostgreSQL the
  // transaction costs two statements and locks the feed row only, while a first look would be read
  // again inside it whenever something is heard — every round, under load — and be wasted whenever
  // another process's feeder holds the row.
  if (!d.postgres) {
    const seen = await lockFeed(d.db, false);
    if (!seen) return 0;
    const quick = await advance(d.db, d, seen, false);
    if (quick.done) return quick.read;
  }
  return d.db.transaction().execute(async (trx) => {
    const position = await lockFeed(trx, d.postgres);
    if (!position) return 0;
    return (await advance(trx, d, position, true)).read;
  });
}

/**
 * Reads what follows `position`; with `deliver`, makes the deliveries and moves the position (inside
 * the round's transaction). Without, it moves the position only when no change is heard by a webhook
 * (`done`), and only if no other feeder moved it meanwhile.
 */
async function advance(
  db: Kysely<DB>,
  d: FeedDeps,
  position: FeedPosition,
  deliver: boolean,
): Promise<{ read: number; done: boolean }> {
  const nowMs = d.now();
  const fresh = await feedChangesSince(db, position.lastID, PAGE);
  const late = await feedChangesIn(
    db,
    position.gaps.map(([id]) => id),
  );
  const found = new Set(late.map((c) => c.changeID));
  let gaps = position.gaps.filter(([id, noticed]) => !found.has(id) && nowMs - noticed < GAP_MS);
  let lastID = position.lastID;
  for (const c of fresh) {
    if (c.changeID - lastID <= MAX_GAPS)
      for (let missing = lastID + 1; missing < c.changeID; missing++) gaps.push([missing, nowMs]);
    lastID = c.changeID;
  }
  if (gaps.length > MAX_GAPS) gaps = gaps.slice(-MAX_GAPS);
  const hooks = new Map<number, WebhookRow[]>();
  const heard: [FeedChange, WebhookRow[]][] = [];
  for (const c of [...late, ...fresh]) {
    const list = await listeners(db, c, hooks);
    if (list.length) heard.push([c, list]);
  }
  const confirmations = await confirmationJobs(db, [...late, ...fresh]);
  const moved = lastID !== position.lastID || gaps.length !== position.gaps.length || late.length > 0;
  if (!deliver) {
    if (heard.length || confirmations.length) return { read: fresh.length, done: false };
    if (moved && !(await moveFeed(db, { lastID, gaps }, position))) return { read: 0, done: true };
    return { read: fresh.length, done: true };
  }
  // A batch job per BATCH deliveries or so (whole changes: a change's deliveries share one object
  // read), its rows inserted in one statement; the jobs in one more.
  const jobs = [];
  for (const rows of batchesOf(heard, nowMs)) {
    const deliveryIDs = await insertDeliveries(db, rows);
    if (deliveryIDs.length) jobs.push({ payload: { deliveryIDs }, options: { key: `${deliveryIDs[0]}.batch` } });
  }
  await d.queue.addMany(db, DELIVER_BATCH_JOB, jobs);
  await d.queue.addMany(db, CONFIRM_JOB, confirmations);
  if (moved) await moveFeed(db, { lastID, gaps });
  return { read: fresh.length, done: true };
}

/** The webhooks, on or off, that hear `c` (none for a quiet change, one of no company, a webhook's own). */
async function listeners(db: Kysely<DB>, c: FeedChange, hooks: Map<number, WebhookRow[]>): Promise<WebhookRow[]> {
  if (c.quiet || c.companyID === null || !isDelivered(c.operation)) return [];
  let list = hooks.get(c.companyID);
  if (!list) hooks.set(c.companyID, (list = await webhooksFor(db, c.companyID)));
  const type = typeOf(c.operation);
  return list.filter((w) => (w.eventID === null || w.eventID === c.eventID) && hears(w.types, type));
}

/** The deliveries of the heard changes, one per (webhook, change), in batches of whole changes. */
function batchesOf(heard: [FeedChange, WebhookRow[]][], nowMs: number): DeliveryValues[][] {
  const batches: DeliveryValues[][] = [];
  let batch: DeliveryValues[] = [];
  for (const [c, list] of heard) {
    if (batch.length && batch.length + list.length > BATCH) {
      batches.push(batch);
      batch = [];
    }
    for (const w of list)
      batch.push({
        webhookID: w.webhookID,
        changeID: c.changeID,
        type: typeOf(c.operation),
        // Made by the worker of the first attempt (it reads the object): the feeder stays quick.
        payload: '',
        createdAt: nowMs,
        nextAt: w.active ? nowMs : null,
        state: w.active ? 'pending' : 'held',
      });
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/** Feeds in rounds (jobs/rounds.ts): every `everyMs`, on poke() (the bus's changes), one at a time. */
export function startFeeder(d: FeedDeps, everyMs: number, onError: (err: unknown) => void): Rounds {
  return startRounds(() => feedRound(d), PAGE, everyMs, onError);
}
