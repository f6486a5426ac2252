import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { PgBoss, fromKysely, type Job, type JobResult, type SendOptions } from 'pg-boss';
import type { DB } from '../db/schema.ts';
import type { AddOptions, FailedJob, JobHandler, JobLogger, JobQueue, JobSettings, Payload } from './queue.ts';
import { plainLine } from './retry.ts';

// Jobs on PostgreSQL: pg-boss. Chosen over Graphile Worker because it enqueues through any SQL executor
// — `fromKysely(trx)` runs its INSERT on the caller's Kysely transaction, so the job commits or rolls
// back with the write — and it has the rest of the contract built in: retries with exponential backoff
// and jitter, a retry limit, failed jobs kept, singleton keys, a lease (expireInSeconds) that its
// supervisor enforces, and a graceful stop that fails the jobs still in hand so they are retried.
//
// One pg-boss queue per job name, with the `exclusive` policy: a key is unique among the name's created,
// retry and active jobs, as on SQLite. A job without a key gets a unique one, since under that policy
// every keyless job would share the empty key.

export async function startPgBossQueue(
  db: Kysely<DB>,
  url: string,
  settings: JobSettings,
  logger: JobLogger,
): Promise<PgBossJobQueue> {
  const current = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s ?? 'public';
  const superviseSeconds = Math.max(1, Math.min(60, Math.round(settings.leaseSeconds / 2)));
  const boss = new PgBoss({
    connectionString: url,
    // Its own schema per store, next to the store's: stores sharing a database keep their jobs apart.
    schema: jobSchemaOf(current),
    application_name: 'podium-jobs',
    max: 4,
    // Cron is not used; nothing to poll for.
    schedule: false,
    // The supervisor fails jobs whose lease (expireInSeconds) ran out; check often enough that a dead
    // worker's job comes back soon after its lease.
    // (A queue's expiry runs in its monitor pass, which has its own interval.)
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
    // A job added anywhere wakes idle workers at its commit (NOTIFY is transactional), not at the next poll.
    useListenNotify: true,
  });
  boss.on('error', (err) => logger.error({ err: plainLine(err) }, 'jobs: pg-boss error'));
  await boss.start();
  return new PgBossJobQueue(db, boss, jobSchemaOf(current), settings, logger);
}

/** The pg-boss schema of the store whose schema is `storeSchema`. */
export const jobSchemaOf = (storeSchema: string): string => `${storeSchema}_jobs`;

export class PgBossJobQueue implements JobQueue {
  readonly kind = 'postgres' as const;
  readonly #db: Kysely<DB>;
  readonly #boss: PgBoss;
  readonly #schema: string;
  readonly #settings: JobSettings;
  readonly #logger: JobLogger;
  readonly #queues = new Map<string, Promise<void>>();

  constructor(db: Kysely<DB>, boss: PgBoss, schema: string, settings: JobSettings, logger: JobLogger) {
    this.#db = db;
    this.#boss = boss;
    this.#schema = schema;
    this.#settings = settings;
    this.#logger = logger;
  }

  /** The job options every job carries, so a change of settings applies to the next job. */
  #jobOptions(maxAttempts = this.#settings.maxAttempts): SendOptions {
    const s = this.#settings;
    return {
      retryLimit: maxAttempts - 1,
      retryDelay: Math.max(1, Math.round(s.retrySeconds)),
      retryBackoff: true,
      retryDelayMax: Math.round(s.retryMaxSeconds),
      expireInSeconds: s.leaseSeconds,
      deleteAfterSeconds: s.keepDays * 86_400,
    };
  }

  /** Creates the name's queue once (outside the caller's transaction: a failed create must not abort it). */
  #queue(name: string): Promise<void> {
    let created = this.#queues.get(name);
    if (!created) {
      created = this.#boss.createQueue(name, { policy: 'exclusive', notify: true, ...this.#jobOptions() });
      created.catch(() => this.#queues.delete(name));
      this.#queues.set(name, created);
    }
    return created;
  }

  async add(trx: Kysely<DB>, name: string, payload: Payload = {}, options: AddOptions = {}): Promise<boolean> {
    await this.#queue(name);
    const id = await this.#boss.send(name, payload, {
      ...this.#jobOptions(options.maxAttempts),
      singletonKey: options.key ?? randomUUID(),
      ...(options.runAt ? { startAfter: options.runAt } : {}),
      // The INSERT runs on the caller's transaction: it commits or rolls back with the write.
      db: fromKysely(trx),
    });
    return id !== null;
  }

  async addMany(trx: Kysely<DB>, name: string, jobs: readonly { payload: Payload; options?: AddOptions }[]) {
    if (jobs.length === 0) return;
    await this.#queue(name);
    // pg-boss's insert: one statement for all of them, on the caller's transaction.
    await this.#boss.insert(
      name,
      jobs.map((job) => ({
        data: job.payload,
        ...this.#jobOptions(job.options?.maxAttempts),
        singletonKey: job.options?.key ?? randomUUID(),
        ...(job.options?.runAt ? { startAfter: job.options.runAt } : {}),
      })),
      { db: fromKysely(trx) },
    );
  }

  async work(handlers: Readonly<Record<string, JobHandler>>, options: { concurrency?: number } = {}): Promise<void> {
    const concurrency = Math.max(1, options.concurrency ?? this.#settings.concurrency);
    for (const [name, handler] of Object.entries(handlers)) {
      await this.#queue(name);
      // One fetch takes up to `concurrency` jobs, run together, each settled on its own (perJobResults);
      // while fetches come back full the worker fetches again at once (burstWhenBatchFull).
      await this.#boss.work<Payload>(
        name,
        {
          batchSize: concurrency,
          perJobResults: true,
          burstWhenBatchFull: true,
          pollingIntervalSeconds: Math.max(0.5, this.#settings.pollMs / 1000),
          // NOTIFY wakes a worker for a new job only: a retry coming due, or a job whose lease ran out, is
          // found by polling, so the poll stays as frequent while NOTIFY is on (its default is 30 s).
          notifyPollingIntervalSeconds: Math.max(0.5, this.#settings.pollMs / 1000),
        },
        (jobs) => Promise.all(jobs.map((job) => this.#run(name, handler, job))),
      );
    }
  }

  async #run(name: string, handler: JobHandler, job: Job<Payload>): Promise<JobResult> {
    const attempt = job.retryCount + 1;
    try {
      await handler(job.data, { id: job.id, name, attempt });
      return { id: job.id, status: 'completed' };
    } catch (err) {
      const error = plainLine(err);
      this.#logger.warn({ job: name, jobID: job.id, attempt, error }, 'jobs: attempt failed');
      return { id: job.id, status: 'failed', output: { message: error } };
    }
  }

  async stop(): Promise<void> {
    await this.#boss.stop({ graceful: true, timeout: this.#settings.stopTimeoutMs, close: true });
  }

  async failed(limit = 100): Promise<FailedJob[]> {
    // pg-boss's job table, read directly: findJobs() answers per queue and cannot filter by state.
    const { rows } = await sql<{
      id: string;
      name: string;
      data: Payload | null;
      retry_count: number;
      // A handler's failure is { message }; pg-boss's own (lease ran out) is { value: { message } }.
      output: { message?: string; value?: { message?: string } } | null;
      completed_on: Date;
    }>`select id, name, data, retry_count, output, completed_on from ${sql.table(`${this.#schema}.job`)}
       where state = 'failed' order by completed_on desc, id limit ${limit}`.execute(this.#db);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      payload: r.data ?? {},
      attempts: r.retry_count + 1,
      error: plainLine(r.output?.message ?? r.output?.value?.message ?? 'failed'),
      failedAt: new Date(r.completed_on),
    }));
  }
}
