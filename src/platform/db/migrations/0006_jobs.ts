import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Durable jobs on the embedded SQLite store (issue 11): a job is a row written in the same transaction
// as the write that causes it, so it exists if and only if that write committed. The process drains the
// table (src/platform/jobs/sqlite.ts). On PostgreSQL, pg-boss keeps jobs in a schema of its own, so this
// migration creates nothing there.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema
    .createTable('job')
    .addColumn('jobID', 'integer', (c) => c.primaryKey().autoIncrement())
    // The handler's name (`change.prune`).
    .addColumn('name', 'text', (c) => c.notNull())
    // The handler's input, JSON.
    .addColumn('payload', 'text', (c) => c.notNull())
    // Idempotency key: unique per name among the jobs not yet finished (index below).
    .addColumn('key', 'text')
    // queued (waiting or waiting to retry), running (a worker holds its lease), failed (kept, not run again).
    // A completed job is deleted.
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    // Attempts started so far, and the most allowed.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('maxAttempts', 'integer', (c) => c.notNull())
    // Unix ms: a queued job runs from then on (its first run, or its next try after a backoff).
    .addColumn('runAt', 'bigint', (c) => c.notNull())
    // The lease of a running job: after lockedUntil (Unix ms) another worker may take it; lockedBy
    // names the claim, so a worker whose lease went to another cannot complete the job any more.
    .addColumn('lockedUntil', 'bigint')
    .addColumn('lockedBy', 'text')
    // The last failure, one plain line.
    .addColumn('lastError', 'text')
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    // Unix ms the job failed for good (failed jobs are kept for a window, then forgotten).
    .addColumn('failedAt', 'bigint')
    .execute();
  // What a worker claims: due queued jobs, and running jobs whose lease ran out.
  await db.schema.createIndex('job_due').on('job').columns(['state', 'runAt']).execute();
  // The idempotency key: one unfinished job per (name, key); a finished job frees its key.
  await db.schema
    .createIndex('job_key')
    .on('job')
    .columns(['name', 'key'])
    .unique()
    .where(sql<boolean>`"key" is not null and "state" <> 'failed'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.dropTable('job').execute();
}
