import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

// Durable jobs (issue 11): work a write causes but the caller should not wait for (e-mail, webhooks,
// reports, pruning). A job is added inside the transaction of the write that causes it, so it exists if
// and only if that write committed. One interface, two engines: pg-boss on PostgreSQL (postgres.ts), a
// `job` table drained by the process on SQLite (sqlite.ts). Both behave the same way:
//
// - a job runs at least once and, unless a worker loses its lease, exactly once; handlers must be
//   idempotent, since a worker killed mid-job leaves a job that runs again;
// - a handler that throws is retried after a backoff that doubles with each attempt, with jitter
//   (retrySeconds · 2^(attempt-1) · [1, 2), at most retryMaxSeconds), until maxAttempts; then the job is
//   failed, kept keepDays with its last error as one plain line, and listed by failed();
// - a running job holds a lease of leaseSeconds; when it runs out (the worker died, or the handler is
//   still running), the attempt counts as failed and the job is retried on any worker;
// - an idempotency key is unique per job name among the jobs not yet finished (waiting, waiting to
//   retry, running): a second add with that key adds nothing and answers false. Once the job has
//   completed or failed, the key is free again (pg-boss's `exclusive` queue policy);
// - stop() lets the jobs in hand finish for stopTimeoutMs; one still running then is released (counted
//   as a failed attempt, retried later, on this or another worker).

/** A job's input: a JSON object. */
export type Payload = Record<string, unknown>;

export interface AddOptions {
  /** Idempotency key: while a job of this name with this key is unfinished, add() adds nothing. */
  readonly key?: string;
  /** Not before this time (default: now). */
  readonly runAt?: Date;
  /** Most attempts before the job fails for good (default: the queue's maxAttempts). */
  readonly maxAttempts?: number;
}

/** What a handler is told about the job it runs. */
export interface RunningJob {
  readonly id: string;
  readonly name: string;
  /** 1 for the first run, 2 for the first retry, … */
  readonly attempt: number;
}

export type JobHandler = (payload: any, job: RunningJob) => Promise<void>;

/** A job that used all its attempts. */
export interface FailedJob {
  readonly id: string;
  readonly name: string;
  readonly payload: Payload;
  readonly attempts: number;
  /** The last attempt's error, one plain line. */
  readonly error: string;
  readonly failedAt: Date;
}

export interface JobQueue {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Adds a job inside `trx`, the transaction of the write that causes it (or the store itself, for a job
   * of its own). Answers false when the key's job is already waiting or running.
   */
  add(trx: Kysely<DB>, name: string, payload?: Payload, options?: AddOptions): Promise<boolean>;
  /**
   * Adds several jobs of one name inside `trx`, as add() would one by one, in one statement where the
   * engine can (the webhook feeder adds one per delivery: thousands a second).
   */
  addMany(trx: Kysely<DB>, name: string, jobs: readonly { payload: Payload; options?: AddOptions }[]): Promise<void>;
  /** Starts taking the jobs named by `handlers`, `concurrency` at a time (default: the settings'). */
  work(handlers: Readonly<Record<string, JobHandler>>, options?: { concurrency?: number }): Promise<void>;
  /** Stops taking jobs, waits for those in hand (stopTimeoutMs), releases the rest; closes the queue. */
  stop(): Promise<void>;
  /** Failed jobs, the latest first. */
  failed(limit?: number): Promise<FailedJob[]>;
}

export interface JobSettings {
  /** Seconds a running job holds its lease; another worker takes it after. */
  readonly leaseSeconds: number;
  /** How often an idle worker looks for due jobs (a job added by this process wakes it at once). */
  readonly pollMs: number;
  readonly maxAttempts: number;
  /** First retry's delay, in seconds (whole seconds: pg-boss's unit). */
  readonly retrySeconds: number;
  readonly retryMaxSeconds: number;
  /** Jobs one worker runs at once. */
  readonly concurrency: number;
  /** How long stop() waits for the jobs in hand. */
  readonly stopTimeoutMs: number;
  /** Days a failed job is kept (pg-boss keeps completed ones as long). */
  readonly keepDays: number;
}

export const DEFAULT_SETTINGS: JobSettings = Object.freeze({
  leaseSeconds: 300,
  pollMs: 1000,
  maxAttempts: 5,
  retrySeconds: 5,
  retryMaxSeconds: 3600,
  concurrency: 8,
  stopTimeoutMs: 10_000,
  keepDays: 7,
});

/** Where a queue logs a failed attempt or a lost connection, and its handlers what they did (pino's shape). */
export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobQueueOptions {
  readonly db: Kysely<DB>;
  readonly kind: 'sqlite' | 'postgres';
  /** The DATABASE_URL: on PostgreSQL, pg-boss opens a small pool of its own (its LISTEN, its supervisor). */
  readonly url?: string;
  readonly settings?: Partial<JobSettings>;
  readonly logger?: JobLogger;
}

export const silentLogger: JobLogger = { info() {}, warn() {}, error() {} };

/**
 * The queue of a store. On PostgreSQL it installs (or upgrades) pg-boss in the schema
 * `<current_schema>_jobs`, so stores sharing a database keep their jobs apart.
 */
export async function createJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const logger = options.logger ?? silentLogger;
  if (options.kind === 'sqlite') {
    const { SqliteJobQueue } = await import('./sqlite.ts');
    return new SqliteJobQueue(options.db, settings, logger);
  }
  if (!options.url) throw new Error('a PostgreSQL job queue needs the store url');
  const { startPgBossQueue } = await import('./postgres.ts');
  return startPgBossQueue(options.db, options.url, settings, logger);
}
