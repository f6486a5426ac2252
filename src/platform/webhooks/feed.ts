import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AddOptions, JobQueue, Payload } from '../jobs/queue.ts';
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
import { SANITY_CHECK_JOB, sanityJobs } from '../resources/sanity/job.ts';

// The feeder: the change log becomes deliveries, never inside the request that wrote. The same rounds
// serve registrations' confirmation e-mails (resources/email/confirmation.ts) and attendees' address
// checks (resources/sanity/job.ts), each through a feed of its own (`confirm`, `sanity`, on a timer
// only, so that a round takes many registrations): a Follower says what a feed makes of the changes it
// reads (jobFollower: jobs only). The webhooks' feed runs in the processes that run jobs, on a
// timer and whenever the bus tells of a change, one round at a time
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

/**
 * What a feed makes of the changes it read: the writes to make in the round's transaction, or undefined
 * when there are none (the position then moves without a transaction on SQLite).
 */
export interface Follower {
  /** Its feed's row (webhookFeed.name). */
  readonly feed: string;
  plan(db: Kysely<DB>, d: FeedDeps, changes: readonly FeedChange[], nowMs: number): Promise<((trx: Kysely<DB>) => Promise<void>) | undefined>; // prettier-ignore
}

/** One round; answers how many changes it read (a full page asks for another round at once). */
export async function feedRound(d: FeedDeps, f: Follower = webhookFollower): Promise<number> {
  // On SQLite, first without a transaction: most rounds have nothing any webhook hears, and then the
  // position moves by one compare-and-set UPDATE (a write transaction holds the store's write lock:
  // taken on every change by every process, it would make them queue for nothing). On PostgreSQL the
  // transaction costs two statements and locks the feed row only, while a first look would be read
  // again inside it whenever something is heard — every round, under load — and be wasted whenever
  // another process's feeder holds the row.
  if (!d.postgres) {
    const seen = await lockFeed(d.db, false, f.feed);
    if (!seen) return 0;
    const quick = await advance(d.db, d, f, seen, false);
    if (quick.done) return quick.read;
  }
  return d.db.transaction().execute(async (trx) => {
    const position = await lockFeed(trx, d.postgres, f.feed);
    if (!position) return 0;
    return (await advance(trx, d, f, position, true)).read;
  });
}

/**
 * Reads what follows `position`; with `deliver`, makes the follower's writes and moves the position
 * (inside the round's transaction). Without, it moves the position only when the follower has nothing
 * to write (`done`), and only if no other feeder moved it meanwhile.
 */
async function advance(
  db: Kysely<DB>,
  d: FeedDeps,
  f: Follower,
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
  const write = await f.plan(db, d, [...late, ...fresh], nowMs);
  const moved = lastID !== position.lastID || gaps.length !== position.gaps.length || late.length > 0;
  if (!deliver) {
    if (write) return { read: fresh.length, done: false };
    if (moved && !(await moveFeed(db, f.feed, { lastID, gaps }, position))) return { read: 0, done: true };
    return { read: fresh.length, done: true };
  }
  await write?.(db);
  if (moved) await moveFeed(db, f.feed, { lastID, gaps });
  return { read: fresh.length, done: true };
}

/** The webhooks' feed: a delivery per (webhook, change) it hears, and a batch job per BATCH or so. */
export const webhookFollower: Follower = {
  feed: 'main',
  async plan(db, d, changes, nowMs) {
    const hooks = new Map<number, WebhookRow[]>();
    const heard: [FeedChange, WebhookRow[]][] = [];
    for (const c of changes) {
      const list = await listeners(db, c, hooks);
      if (list.length) heard.push([c, list]);
    }
    if (heard.length === 0) return undefined;
    return async (trx) => {
      // A batch job per BATCH deliveries or so (whole changes: a change's deliveries share one object
      // read), its rows inserted in one statement; the jobs in one more.
      const jobs = [];
      for (const rows of batchesOf(heard, nowMs)) {
        const deliveryIDs = await insertDeliveries(trx, rows);
        if (deliveryIDs.length) jobs.push({ payload: { deliveryIDs }, options: { key: `${deliveryIDs[0]}.batch` } });
      }
      await d.queue.addMany(trx, DELIVER_BATCH_JOB, jobs);
    };
  },
};

/** A job a follower adds. */
type AddJob = { readonly payload: Payload; readonly options?: AddOptions };

/**
 * A feed whose rounds add `job`s only: the jobs `plan` makes of the changes (keyed, so that a round fed
 * again adds nothing new), in the round's transaction.
 */
export function jobFollower(
  feed: string,
  job: string,
  plan: (db: Kysely<DB>, changes: readonly FeedChange[]) => Promise<readonly AddJob[]>,
): Follower {
  return {
    feed,
    async plan(db, d, changes) {
      const jobs = await plan(db, changes);
      if (jobs.length === 0) return undefined;
      return (trx) => d.queue.addMany(trx, job, jobs);
    },
  };
}

/** Registrations' confirmation e-mails (resources/email/confirmation.ts): a job per batch of attendees. */
export const confirmFollower: Follower = jobFollower('confirm', CONFIRM_JOB, confirmationJobs);

/** Attendees' address checks (resources/sanity/job.ts): a job per batch of attendees made or edited. */
export const sanityFollower: Follower = jobFollower('sanity', SANITY_CHECK_JOB, async (_db, changes) =>
  sanityJobs(changes),
);

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

/**
 * Feeds `f` in rounds (jobs/rounds.ts): every `everyMs`, and on poke() where the caller pokes (the
 * webhooks' feed on the bus's changes), one at a time, a poked round at least `gapMs` after the last.
 */
export function startFeeder(
  d: FeedDeps,
  f: Follower,
  everyMs: number,
  onError: (err: unknown) => void,
  gapMs = 0,
): Rounds {
  return startRounds(() => feedRound(d, f), PAGE, everyMs, onError, gapMs);
}
