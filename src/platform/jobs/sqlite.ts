import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AddOptions, FailedJob, JobHandler, JobLogger, JobQueue, JobSettings, Payload } from './queue.ts';
import { plainLine, retryDelayMs } from './retry.ts';

// Jobs on the embedded SQLite store: the `job` table (migration 0006), drained by a poll loop in the
// process. Every step is one short transaction (BEGIN IMMEDIATE), so any number of workers — in this
// process or others on the same file — take each job once: a claim marks its jobs running under a lease
// and a claim id, and only that claim can complete or fail them. A worker that dies leaves its jobs
// running; once their lease runs out, the next claim of any worker counts the attempt as failed and
// retries them (after the backoff) or fails them for good, as pg-boss's supervisor does.

interface Claimed {
  readonly jobID: number;
  readonly name: string;
  readonly payload: string;
  readonly attempt: number;
  readonly claim: string;
}

const HOUR = 3_600_000;

export class SqliteJobQueue implements JobQueue {
  readonly kind = 'sqlite' as const;
  readonly #db: Kysely<DB>;
  readonly #settings: JobSettings;
  readonly #logger: JobLogger;
  #handlers: Readonly<Record<string, JobHandler>> = {};
  #concurrency = 1;
  readonly #inHand = new Map<string, { job: Claimed; done: Promise<void> }>();
  #loop?: Promise<void>;
  #stopping = false;
  #woken = false;
  #wake?: () => void;
  #prunedAt = 0;

  constructor(db: Kysely<DB>, settings: JobSettings, logger: JobLogger) {
    this.#db = db;
    this.#settings = settings;
    this.#logger = logger;
  }

  async add(trx: Kysely<DB>, name: string, payload: Payload = {}, options: AddOptions = {}): Promise<boolean> {
    const now = Date.now();
    const result = await trx
      .insertInto('job')
      .values({
        name,
        payload: JSON.stringify(payload),
        key: options.key ?? null,
        maxAttempts: options.maxAttempts ?? this.#settings.maxAttempts,
        runAt: options.runAt?.getTime() ?? now,
        createdAt: now,
      })
      // The partial unique index on (name, key) of unfinished jobs: a duplicate key adds nothing.
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    const added = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    // Our own loop's claim waits for the store's connection, that is for this transaction to end: woken
    // now, it sees the job as soon as it is committed.
    if (added && this.#loop) this.#wakeUp();
    return added;
  }

  async addMany(trx: Kysely<DB>, name: string, jobs: readonly { payload: Payload; options?: AddOptions }[]) {
    // One writer at a time on SQLite: a statement per job costs no round trip.
    for (const job of jobs) await this.add(trx, name, job.payload, job.options);
  }

  async work(handlers: Readonly<Record<string, JobHandler>>, options: { concurrency?: number } = {}): Promise<void> {
    if (this.#loop) throw new Error('this queue is already working');
    this.#handlers = handlers;
    this.#concurrency = Math.max(1, options.concurrency ?? this.#settings.concurrency);
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#wakeUp();
    await this.#loop;
    const inHand = [...this.#inHand.values()];
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.all(inHand.map((h) => h.done)).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(resolve, this.#settings.stopTimeoutMs, false))),
    ]);
    clearTimeout(timer);
    if (finished) return;
    // Released, not abandoned: the attempt counts as failed and the job is retried, on any worker. The
    // handler may still finish here, but its claim is gone, so it can no longer complete the job.
    for (const { job } of this.#inHand.values()) {
      await this.#settle(job, 'the worker stopped while the job was running').catch(() => {});
      this.#inHand.delete(job.claim + job.jobID);
    }
  }

  async failed(limit = 100): Promise<FailedJob[]> {
    const rows = await this.#db
      .selectFrom('job')
      .select(['jobID', 'name', 'payload', 'attempts', 'lastError', 'failedAt'])
      .where('state', '=', 'failed')
      .orderBy('failedAt', 'desc')
      .orderBy('jobID', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: String(r.jobID),
      name: r.name,
      payload: JSON.parse(r.payload) as Payload,
      attempts: r.attempts,
      error: r.lastError ?? '',
      failedAt: new Date(Number(r.failedAt)),
    }));
  }

  #wakeUp(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Sleeps `ms`, or less when woken (a job added or finished here, stop()). */
  async #sleep(ms: number): Promise<void> {
    if (this.#woken) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    this.#wake = undefined;
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      this.#woken = false;
      const free = this.#concurrency - this.#inHand.size;
      let claimed = 0;
      if (free > 0) {
        try {
          await this.#pruneFailed();
          const jobs = await this.#claim(free);
          claimed = jobs.length;
          for (const job of jobs) this.#start(job);
        } catch (err) {
          this.#logger.error({ err: plainLine(err) }, 'jobs: could not claim');
        }
      }
      // A full claim means more may be due: look again at once. Otherwise wait for the next poll, a new
      // job, or a free slot.
      if (free > 0 && claimed === free) continue;
      await this.#sleep(this.#settings.pollMs);
    }
  }

  #start(job: Claimed): void {
    const handler = this.#handlers[job.name];
    const done = (async () => {
      try {
        await handler(JSON.parse(job.payload), { id: String(job.jobID), name: job.name, attempt: job.attempt });
      } catch (err) {
        const error = plainLine(err);
        this.#logger.warn({ job: job.name, jobID: job.jobID, attempt: job.attempt, error }, 'jobs: attempt failed');
        await this.#settle(job, error);
        return;
      }
      // Fenced by the claim: a job whose lease went to another worker is that worker's now.
      await this.#db
        .deleteFrom('job')
        .where('jobID', '=', job.jobID)
        .where('lockedBy', '=', job.claim)
        .executeTakeFirst();
    })()
      .catch((err) => this.#logger.error({ job: job.name, err: plainLine(err) }, 'jobs: could not settle'))
      .finally(() => {
        this.#inHand.delete(job.claim + job.jobID);
        this.#wakeUp();
      });
    this.#inHand.set(job.claim + job.jobID, { job, done });
  }

  /** Takes up to `limit` due jobs this worker has handlers for, under a lease. */
  async #claim(limit: number): Promise<Claimed[]> {
    const names = Object.keys(this.#handlers);
    if (names.length === 0) return [];
    return this.#db.transaction().execute(async (trx) => {
      const now = Date.now();
      // Leases that ran out: the worker died, or its handler overran; the attempt failed.
      const lost = await trx
        .selectFrom('job')
        .select(['jobID', 'name', 'payload', 'attempts', 'lockedBy'])
        .where('state', '=', 'running')
        .where('lockedUntil', '<', now)
        .where('name', 'in', names)
        .limit(100)
        .execute();
      for (const j of lost) {
        const job = { ...j, attempt: j.attempts, claim: j.lockedBy ?? '' };
        await this.#settle(job, 'the lease ran out: the worker stopped or the job ran past the lease', trx);
      }
      const due = await trx
        .selectFrom('job')
        .select(['jobID', 'name', 'payload', 'attempts'])
        .where('state', '=', 'queued')
        .where('runAt', '<=', now)
        .where('name', 'in', names)
        .orderBy('runAt')
        .orderBy('jobID')
        .limit(limit)
        .execute();
      if (due.length === 0) return [];
      const claim = randomUUID();
      await trx
        .updateTable('job')
        .set((eb) => ({
          state: 'running',
          attempts: eb('attempts', '+', 1),
          lockedUntil: now + this.#settings.leaseSeconds * 1000,
          lockedBy: claim,
        }))
        .where(
          'jobID',
          'in',
          due.map((j) => j.jobID),
        )
        .execute();
      return due.map((j) => ({ jobID: j.jobID, name: j.name, payload: j.payload, attempt: j.attempts + 1, claim }));
    });
  }

  /** A failed attempt: the job waits for its retry, or has used its attempts and is kept as failed. */
  async #settle(job: Claimed, error: string, db: Kysely<DB> = this.#db): Promise<void> {
    const now = Date.now();
    await db
      .updateTable('job')
      .set({
        state: sql<'failed' | 'queued'>`case when "attempts" >= "maxAttempts" then 'failed' else 'queued' end`,
        failedAt: sql<number | null>`case when "attempts" >= "maxAttempts" then ${now} else null end`,
        runAt: now + retryDelayMs(job.attempt, this.#settings),
        lastError: error,
        lockedUntil: null,
        lockedBy: null,
      })
      .where('jobID', '=', job.jobID)
      .where('state', '=', 'running')
      .where('lockedBy', '=', job.claim)
      .execute();
  }

  /** Forgets failed jobs past the kept window, at most once an hour. */
  async #pruneFailed(): Promise<void> {
    const now = Date.now();
    if (now - this.#prunedAt < HOUR) return;
    this.#prunedAt = now;
    await this.#db
      .deleteFrom('job')
      .where('state', '=', 'failed')
      .where('failedAt', '<', now - this.#settings.keepDays * 24 * HOUR)
      .execute();
  }
}
