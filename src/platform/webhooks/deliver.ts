import type { Kysely } from 'kysely';
import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import type { DB } from '../db/schema.ts';
import type { JobHandler, JobQueue } from '../jobs/queue.ts';
import {
  deliveriesByID,
  feedChangesIn,
  recordAttempt,
  recordDelivered,
  storePayload,
  updateWebhook,
  webhooksByID,
  type AttemptRow,
  type DeliveryRow,
  type FeedChange,
  type WebhookRow,
} from '../resources/webhook/repository.ts';
import { messageIDOf } from '../resources/webhook/fields.ts';
import { DELIVER_BATCH_JOB, DELIVER_JOB, signDelivery } from '../resources/webhook/sign.ts';
import { changeBody, type ObjectReader } from './payload.ts';
import { post, type LazyAgent, type Outcome, type SendOptions } from './send.ts';

// One attempt of one delivery: the job DELIVER_JOB {deliveryID, attempt} (a retry, webhook.test,
// webhook.delivery.retry), or one of the first attempts of a DELIVER_BATCH_JOB {deliveryIDs} (what the
// feeder adds: one job per batch of deliveries, since pg-boss's insert, fetch and completion of one job per
// delivery cost more than the delivery). Each delivery of a batch is attempted, logged and settled on
// its own, as its answer comes: a receiver that fails or is slow delays none of the others, and is retried
// alone (a DELIVER_JOB of its own). A batch job that throws (the store failed) runs again, and then skips
// the deliveries it had settled: only those it had not are sent again. A 2xx delivers; 410 Gone
// turns the webhook off; 429, 5xx, no answer (timeout, connection refused) and a refused address are
// tried again after the next delay of the schedule (WEBHOOK_RETRY_MS, with jitter, at least what a
// Retry-After asked); any other status, or the end of the schedule, fails the delivery (an organizer
// can retry it: webhook.delivery.retry). The attempt, the outcome and the next job are written in one
// transaction; a job whose attempt was made already (a worker died after that commit) does nothing.
// A webhook that has failed for 5 days in a row is turned off and says so in webhook.get.

export const FAILING_MS = 5 * 24 * 3600 * 1000;

export interface DeliverDeps {
  readonly db: Kysely<DB>;
  readonly queue: Pick<JobQueue, 'add'>;
  readonly key: Buffer | undefined;
  readonly reader: ObjectReader;
  readonly agent: LazyAgent;
  readonly send: SendOptions;
  /** Delays before each retry, ms. */
  readonly schedule: readonly number[];
  /** The clock of the schedule and of the 5 days (tests control it). */
  readonly now: () => number;
  readonly random?: () => number;
}

/** The delay before retry `n` (1-based): the schedule's, plus up to 20% jitter, at least `retryAfterMs`. */
export function retryDelay(schedule: readonly number[], n: number, retryAfterMs = 0, random = Math.random): number {
  const base = schedule[n - 1] ?? 0;
  return Math.max(Math.round(base * (1 + random() / 5)), retryAfterMs);
}

const retryable = (o: Outcome) => o.status === 0 || o.status === 429 || o.status >= 500;

/**
 * Loads by id, one statement for all the ids asked for in the same tick: a worker takes its jobs in
 * batches (JOBS_CONCURRENCY at a time) and starts them together, so a batch reads its deliveries, their
 * webhooks and their changes in three statements rather than three per job. Nothing is kept between
 * batches (cache: false): every job reads the rows as they are.
 */
function byID<T>(load: (ids: readonly number[]) => Promise<T[]>, idOf: (row: T) => number | null) {
  return new DataLoader<number, T | undefined>(
    async (ids) => {
      const rows = new Map((await load(ids)).map((r) => [idOf(r), r]));
      return ids.map((id) => rows.get(id));
    },
    { cache: false },
  );
}

/** How long successes wait to be written together: answers do not all come back in the same tick. */
const WRITE_WAIT_MS = 5;

/** The handlers of DELIVER_JOB and DELIVER_BATCH_JOB. */
export function deliverHandlers(d: DeliverDeps): Record<string, JobHandler> {
  const deliveries = byID(
    (ids) => deliveriesByID(d.db, ids),
    (r) => r.deliveryID,
  );
  const webhooks = byID(
    (ids) => webhooksByID(d.db, ids),
    (r) => r.webhookID,
  );
  const changes = byID(
    (ids) => feedChangesIn(d.db, ids),
    (r) => r.changeID,
  );
  // The common outcome, a first success, is written for many deliveries at once (two statements);
  // a job settles when its batch is written. (A DataLoader as a write batcher: one call per delivery.)
  const delivered = new DataLoader<{ deliveryID: number; attempt: AttemptRow; payload?: string }, void>(
    async (done) => {
      await recordDelivered(d.db, done);
      return done.map(() => undefined);
    },
    { cache: false, maxBatchSize: 200, batchScheduleFn: (run) => setTimeout(run, WRITE_WAIT_MS) },
  );
  // The body of a change for a reader: a company's webhooks usually share their owner, so the object is
  // read once for all of them (in this process) rather than once per webhook — the jobs of one change
  // run together, so the cache holds the body being made, which they all wait for.
  const bodies = new LRUCache<string, Promise<string>>({ max: 10_000, ttl: 60_000 });
  /** The body of `delivery`'s change for `webhook`: made once per change and owner in this process. */
  function bodyOf(delivery: DeliveryRow, webhook: WebhookRow, reader: ObjectReader): Promise<string> {
    const key = `${delivery.changeID}:${webhook.personID}`;
    let body = bodies.get(key);
    if (!body) {
      body = makeBody(delivery, webhook, reader);
      bodies.set(key, body);
      body.catch(() => bodies.delete(key));
    }
    return body;
  }
  async function makeBody(delivery: DeliveryRow, webhook: WebhookRow, reader: ObjectReader): Promise<string> {
    const change = await changes.load(delivery.changeID!);
    // A change the log forgot (pruned) still goes out, with what the delivery knows of it.
    const facts: FeedChange = change ?? {
      changeID: delivery.changeID!,
      at: delivery.createdAt,
      operation: delivery.type,
      kind: '',
      companyID: webhook.companyID,
      eventID: webhook.eventID,
      objectID: null,
      ids: '',
      quiet: 0,
    };
    return changeBody(reader, webhook, facts);
  }
  /** One attempt of one delivery (`reader`: how its object is read, shared by a batch). */
  async function attempt(payload: { deliveryID: number; attempt: number }, reader: ObjectReader): Promise<void> {
    const delivery = await deliveries.load(payload.deliveryID);
    if (!delivery) return;
    const webhook = await webhooks.load(delivery.webhookID);
    if (!webhook) return;
    // Held (its webhook was off when the change came): only its payload is made, for webhook.events.
    if (delivery.state === 'held') {
      if (delivery.payload === '')
        await storePayload(d.db, delivery.deliveryID, await bodyOf(delivery, webhook, reader));
      return;
    }
    if (delivery.state !== 'pending' || delivery.attempts !== payload.attempt - 1) return;
    const nowMs = d.now();
    if (!webhook.active || !d.key) {
      const why = webhook.active ? 'WEBHOOK_SECRET_KEY is not set' : 'the webhook is turned off';
      await recordAttempt(
        d.db,
        delivery.deliveryID,
        { at: nowMs, status: 0, latencyMs: 0, response: why },
        { state: 'failed', nextAt: null },
      );
      return;
    }
    const made = delivery.payload === '';
    const body = made ? await bodyOf(delivery, webhook, reader) : delivery.payload;
    const messageID = messageIDOf(webhook.webhookID, delivery.changeID, delivery.deliveryID);
    const headers = signDelivery(d.key, webhook, messageID, body, nowMs);
    const outcome = await post(d.agent, webhook.url, { ...headers }, body, d.send);
    const at = d.now();
    const ok = outcome.status >= 200 && outcome.status < 300;
    const n = payload.attempt;
    const again = !ok && retryable(outcome) && n <= d.schedule.length;
    const nextAt = again ? at + retryDelay(d.schedule, n, outcome.retryAfterMs, d.random) : null;
    const attempt = { at, status: outcome.status, latencyMs: outcome.latencyMs, response: outcome.response };
    const outcomeRow = {
      state: ok ? ('delivered' as const) : again ? ('pending' as const) : ('failed' as const),
      nextAt,
    };
    // The body is stored with the first attempt's outcome: every later attempt (and webhook.events)
    // sends these bytes.
    const stored = made ? body : undefined;
    if (ok && webhook.failingSince === null) {
      // The common case writes two rows and nothing else: no transaction to pay for. Should the worker die
      // between them, the job runs again and the receiver de-duplicates by webhook-id.
      await delivered.load({ deliveryID: delivery.deliveryID, attempt, payload: stored });
      return;
    }
    await d.db.transaction().execute(async (trx) => {
      await recordAttempt(trx, delivery.deliveryID, attempt, outcomeRow, stored);
      if (nextAt !== null)
        await d.queue.add(
          trx,
          DELIVER_JOB,
          { deliveryID: delivery.deliveryID, attempt: n + 1 },
          {
            key: `${delivery.deliveryID}.${n + 1}.${at}`,
            // The queue runs on the wall clock, whatever clock the schedule is told on.
            runAt: new Date(Date.now() + (nextAt - at)),
          },
        );
      if (ok) {
        await updateWebhook(trx, webhook.webhookID, { failingSince: null });
      } else if (outcome.status === 410) {
        await updateWebhook(trx, webhook.webhookID, { active: 0, disabledReason: '410' });
      } else {
        const since = webhook.failingSince ?? at;
        const failing = at - since >= FAILING_MS;
        await updateWebhook(trx, webhook.webhookID, {
          failingSince: since,
          ...(failing ? { active: 0, disabledReason: 'failing' } : {}),
        });
      }
    });
  }
  return {
    [DELIVER_JOB]: (payload: { deliveryID: number; attempt: number }) => attempt(payload, d.reader),
    [DELIVER_BATCH_JOB]: async (payload: { deliveryIDs: number[] }) => {
      // The first attempts of the batch, all at once; each settles on its own. Their objects are read
      // once per object for the batch (every read starts after the batch's changes committed, so each
      // payload shows its change, as a read per change would).
      const reader = d.reader.shared();
      const settled = await Promise.allSettled(
        payload.deliveryIDs.map((deliveryID) => attempt({ deliveryID, attempt: 1 }, reader)),
      );
      const failed = settled.find((s) => s.status === 'rejected');
      // The store failed for one at least: the job runs again, and sends only what was not settled.
      if (failed) throw failed.reason;
    },
  };
}
