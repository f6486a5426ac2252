import type { Config } from '../config.ts';
import type { Store } from '../db/connect.ts';
import type { JobHandler, JobLogger, JobQueue } from '../jobs/queue.ts';
import { plainLine } from '../jobs/retry.ts';
import { hasWebhooks, pruneDeliveries } from '../resources/webhook/repository.ts';
import { deliverHandlers } from './deliver.ts';
import { confirmFollower, sanityFollower, startFeeder, webhookFollower } from './feed.ts';
import { systemResolver, type Resolver } from './guard.ts';
import { objectReader } from './payload.ts';
import { guardedAgent } from './send.ts';

// Webhooks in a process that runs jobs (issue 14, docs/webhooks.md): the feeder that turns the change
// log into deliveries, the handler that makes each attempt, and the hourly forgetting of deliveries
// older than 30 days.

const KEEP_MS = 30 * 24 * 3600 * 1000;
const HOUR = 3_600_000;
/** Milliseconds between poked rounds of the webhooks' feed, at least (jobs/rounds.ts). */
const FEED_GAP_MS = 10;

export interface WebhookOptions {
  /** The clock of the retry schedule and of the 5 days of failures (tests control it). */
  readonly now?: () => number;
  /** How names resolve (tests resolve names to addresses they choose). */
  readonly resolve?: Resolver;
  readonly random?: () => number;
}

export function startWebhooks(
  store: Store,
  config: Config,
  queue: JobQueue,
  logger: JobLogger,
  o: WebhookOptions = {},
) {
  const now = o.now ?? Date.now;
  const send = {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE === '1',
    resolve: o.resolve ?? systemResolver,
    now,
  };
  const agent = guardedAgent(send);
  const reader = objectReader(store.db, config);
  const handlers: Record<string, JobHandler> = deliverHandlers({
    db: store.db,
    queue,
    key: config.WEBHOOK_SECRET_KEY,
    reader,
    agent,
    send,
    schedule: config.WEBHOOK_RETRY_MS,
    now,
    random: o.random,
  });
  let feeder: ReturnType<typeof startFeeder> | undefined;
  let confirmer: ReturnType<typeof startFeeder> | undefined;
  let checker: ReturnType<typeof startFeeder> | undefined;
  let pruner: NodeJS.Timeout | undefined;
  return {
    handlers,
    /**
     * Starts feeding, once the queue works. A store with webhooks will deliver: the table payloads are
     * read with is loaded first (over a second), so that the first deliveries do not wait for it — the
     * bench's p99 went from 0.3 to 1.4–1.9 s when it was loaded at the first delivery. A worker of a
     * store without webhooks (reports only) does not load it (docs/api/reports.md "Memory").
     */
    async start() {
      if (await hasWebhooks(store.db)) {
        await reader.warm();
        agent.get(); // undici, loaded at its first use too
      }
      const deps = { db: store.db, postgres: store.kind === 'postgres', queue, now };
      // On every change, but at most one round per FEED_GAP_MS: under a stream of registrations a round
      // takes many changes (a round per change cost about a tenth of a registration's CPU, bench/mail.mjs).
      feeder = startFeeder(
        deps,
        webhookFollower,
        config.WEBHOOK_FEED_MS,
        (err) => logger.error({ err: plainLine(err) }, 'webhooks: feeding failed'),
        FEED_GAP_MS,
      );
      // Registrations' confirmations: on the timer only, not on every change, so that a round queues
      // the e-mails of many registrations in one transaction (resources/email/confirmation.ts).
      confirmer = startFeeder(deps, confirmFollower, config.CONFIRM_FEED_MS, (err) =>
        logger.error({ err: plainLine(err) }, 'confirmations: feeding failed'),
      );
      // Their address checks (resources/sanity/job.ts), likewise.
      checker = startFeeder(deps, sanityFollower, config.SANITY_FEED_MS, (err) =>
        logger.error({ err: plainLine(err) }, 'address checks: feeding failed'),
      );
      pruner = setInterval(() => {
        pruneDeliveries(store.db, now() - KEEP_MS).catch((err: unknown) =>
          logger.error({ err: plainLine(err) }, 'webhooks: pruning failed'),
        );
      }, HOUR).unref();
    },
    /** A change committed: feed it now rather than at the next tick. */
    poke: () => feeder?.poke(),
    /** Stops feeding (before the queue stops: the jobs in hand still deliver). */
    async stopFeeding() {
      clearInterval(pruner);
      await feeder?.stop();
      await confirmer?.stop();
      await checker?.stop();
    },
    /** Closes what deliveries use (after the queue stopped). */
    async close() {
      reader.close();
      await agent.close();
    },
  };
}
