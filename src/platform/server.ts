import type { Config } from './config.ts';
import { migrate, openStore, type Store } from './db/connect.ts';
import { createCounter } from './limits/counter.ts';
import { buildApp, platformLogger, type PlatformApp } from './app.ts';
import { domainChangeOf, type DomainChange } from './domains.ts';
import { createBus, type ChangeBus } from './bus/bus.ts';
import { startJobs, type Jobs } from './jobs/worker.ts';
import { vapidKeys } from './resources/webpush/keys.ts';
import type { WebhookOptions } from './webhooks/index.ts';
import type { ChangeRow } from './resources/change/log.ts';
import { CNAME_CHECK_JOB } from './resources/event/cname.ts';
import { eventColumns } from './resources/event/repository.ts';

export interface Platform {
  readonly app: PlatformApp;
  readonly store: Store;
  readonly databaseUrl: string;
  readonly url: string;
  /** Committed changes of every process on this store (issue 11): the cache follows it here. */
  readonly bus: ChangeBus;
  /** The durable job queue; this process works it unless JOBS_WORK=0. */
  readonly jobs: Jobs;
  /** Tells `listener` (the site of this process) when a custom domain's event changed; returns its removal. */
  onDomainChange(listener: (change: DomainChange) => void): () => void;
  close(): Promise<void>;
}

/** Opens the store, migrates it, and serves the API on HOST:API_PORT (port 0 picks a free one). */
export async function startPlatform(
  config: Config,
  /** `now`: the clock (ms) of the rate-limit windows without Redis; tests simulate hours with it. */
  opts: { logStream?: NodeJS.WritableStream; now?: () => number; webhooks?: WebhookOptions } = {},
): Promise<Platform> {
  const store = openStore(config.DATABASE_URL, { sqliteCheckpointMs: config.SQLITE_CHECKPOINT_MS });
  await migrate(store.db);
  // Web Push's VAPID key pair, made on the store's first start (kept in `setting`, docs/push.md).
  await vapidKeys(store.db);
  const counter = createCounter(config.REDIS_URL, opts.now);
  const log = platformLogger(config, opts.logStream);
  // Before the API: its writes add jobs (person.recover's e-mail). The bus comes after the API, so
  // the jobs' own changes (a custom domain's check) reach it through `toBus`, bound once it exists.
  let toBus: (changes: readonly ChangeRow[]) => unknown = () => undefined;
  const jobs = await startJobs(store, config, {
    work: config.JOBS_WORK === '1',
    logger: log,
    webhooks: opts.webhooks,
    publish: (changes) => toBus(changes),
  });
  const app = await buildApp({ config, db: store.db, counter, jobs: jobs.queue, log });
  // Every process's commits reach every other's cache through the bus (Redis, PostgreSQL's
  // LISTEN/NOTIFY, or in-process on SQLite); this process's own reach it at once, before the answer.
  const bus = await createBus({
    db: store.db,
    kind: store.kind,
    databaseUrl: config.DATABASE_URL,
    redisUrl: config.REDIS_URL,
    pollMs: config.BUS_POLL_MS,
    logger: app.log,
  });
  // A stream opened without an id is given the bus's settled id, from which a reconnection resumes.
  app.streams.settleWith(() => bus.settled());
  bus.subscribe((change) => {
    app.dispatcher.applyChange(change);
    // After the cache: a stream's listener that reads again on a change gets the new answer.
    app.streams.publish(change);
    jobs.poke();
  });
  app.dispatcher.onCommit((committed) => void bus.publish([committed.change]));
  toBus = (changes) => bus.publish(changes);
  const port = await app.listen(config.HOST, config.API_PORT);
  return {
    app,
    store,
    bus,
    jobs,
    databaseUrl: config.DATABASE_URL,
    url: `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`,
    onDomainChange(listener) {
      const offCommit = app.dispatcher.onCommit((committed) => {
        const change = domainChangeOf(committed);
        if (change) listener(change);
      });
      // A domain starts being served when its DNS check passes, in a job (of any process): its change
      // comes by the bus, and the domain it now serves is read for the listener to learn of it.
      const offBus = bus.subscribe((change) => {
        const { eventID } = change;
        if (change.operation !== CNAME_CHECK_JOB || eventID === null) return;
        void eventColumns(store.db, eventID, ['cname']).then(
          (row) => listener({ eventID, cname: row?.cname ?? '' }),
          () => listener({ eventID }),
        );
      });
      return () => {
        offCommit();
        offBus();
      };
    },
    async close() {
      await app.close();
      // The jobs in hand finish (or go back to the queue for another worker), then the bus, then the store.
      await jobs.stop();
      // Before the store: the bus's last log reads and PostgreSQL's NOTIFY use the store's pool.
      await bus.close();
      await counter.close();
      await store.db.destroy();
    },
  };
}
