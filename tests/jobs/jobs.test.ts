import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStore } from '../../src/platform/db/connect.ts';
import type { DB } from '../../src/platform/db/schema.ts';
import { createJobQueue, type JobHandler, type JobQueue, type JobSettings } from '../../src/platform/jobs/queue.ts';
import { recordChange } from '../../src/platform/resources/change/log.ts';
import { freshStore, STORES } from '../helpers/platform.ts';

// The durable-jobs contract (src/platform/jobs/queue.ts), the same tests on both engines: pg-boss on
// PostgreSQL, the job table on SQLite. Each queue opens a store connection of its own, as a separate
// process would, so two queues are two workers racing for the same jobs.

const FAST: Partial<JobSettings> = {
  leaseSeconds: 2,
  pollMs: 100,
  retrySeconds: 1,
  retryMaxSeconds: 4,
  stopTimeoutMs: 1000,
  concurrency: 8,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe.each(STORES)('durable jobs on %s', (kind) => {
  let url: string;
  let drop: () => Promise<void>;
  let db: Kysely<DB>;
  const opened: { db: Kysely<DB>; queue: JobQueue }[] = [];

  /**
   * A worker. On PostgreSQL a queue with a pool of its own, as another process would have. On SQLite the
   * process's one store connection, as in production: two connections in one thread would block each
   * other (node:sqlite waits for a lock synchronously); the child process of the kill test is the other
   * process racing for the file.
   */
  async function worker(settings: Partial<JobSettings> = {}): Promise<JobQueue> {
    const store = kind === 'sqlite' ? { db, kind } : openStore(url);
    const queue = await createJobQueue({ ...store, url, settings: { ...FAST, ...settings } });
    opened.push({ db: store.db, queue });
    return queue;
  }

  /** Jobs of `name` in the store, in any state (what add() left behind). */
  async function jobsNamed(name: string): Promise<number> {
    const table = kind === 'sqlite' ? sql.table('job') : sql.table(`${await storeSchema()}_jobs.job`);
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${table} where name = ${name}`.execute(db);
    return Number(rows[0].n);
  }
  const storeSchema = async () => (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s;

  beforeAll(async () => {
    ({ url, drop } = await freshStore(kind));
    db = openStore(url).db;
    await migrate(db);
  });

  afterAll(async () => {
    for (const { queue, db: own } of opened) {
      await queue.stop().catch(() => {});
      if (own !== db) await own.destroy();
    }
    await db.destroy();
    await drop();
  });

  it('runs a job added in a committed transaction once, with its payload', async () => {
    const runs: unknown[] = [];
    const queue = await worker();
    await queue.work({ 'test.once': async (payload) => void runs.push(payload) });
    await db.transaction().execute(async (trx) => {
      await recordChange(trx, { operation: 'test.write', kind: 'test' });
      expect(await queue.add(trx, 'test.once', { eventID: 7 })).toBe(true);
    });
    await until(() => runs.length === 1);
    await sleep(700);
    expect(runs).toEqual([{ eventID: 7 }]);
  }, 20_000);

  it('never runs a job whose transaction rolled back, and keeps nothing of it', async () => {
    let runs = 0;
    const queue = await worker();
    await queue.work({ 'test.rolledBack': async () => void runs++ });
    await expect(
      db.transaction().execute(async (trx) => {
        await recordChange(trx, { operation: 'test.rolledBack', kind: 'test' });
        await queue.add(trx, 'test.rolledBack', {});
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await jobsNamed('test.rolledBack')).toBe(0);
    const changes = await db.selectFrom('change').selectAll().where('operation', '=', 'test.rolledBack').execute();
    expect(changes).toEqual([]);
    await sleep(1200);
    expect(runs).toBe(0);
  }, 20_000);

  it('retries a failing job with growing delays, then keeps it as failed with its last error', async () => {
    const at: number[] = [];
    const queue = await worker();
    await queue.work({
      'test.failing': async (_payload, job) => {
        at.push(Date.now());
        // A stack and a connection password must not reach the kept error.
        throw new Error(`boom ${job.attempt} postgres://app:s3cret@db/podium\n    at handler (/srv/x.ts:1:1)`);
      },
    });
    await queue.add(db, 'test.failing', { n: 1 }, { maxAttempts: 3 });
    await until(async () => (await queue.failed()).some((f) => f.name === 'test.failing'), 25_000);
    expect(at).toHaveLength(3);
    const [first, second] = [at[1] - at[0], at[2] - at[1]];
    // retrySeconds 1: the first retry after 1–2 s, the second after 2–4 s (plus up to one poll).
    expect(first).toBeGreaterThanOrEqual(950);
    expect(first).toBeLessThan(3000);
    expect(second).toBeGreaterThanOrEqual(1950);
    const [failed] = (await queue.failed()).filter((f) => f.name === 'test.failing');
    expect(failed).toMatchObject({ payload: { n: 1 }, attempts: 3, error: 'boom 3 postgres://app:***@db/podium' });
    await sleep(2500);
    expect(at).toHaveLength(3);
  }, 40_000);

  it('adds one job per idempotency key while it is unfinished; a finished job frees its key', async () => {
    const queue = await worker();
    const later = new Date(Date.now() + 3_600_000);
    await db.transaction().execute(async (trx) => {
      expect(await queue.add(trx, 'test.keyed', { n: 1 }, { key: 'hour-1', runAt: later })).toBe(true);
      expect(await queue.add(trx, 'test.keyed', { n: 2 }, { key: 'hour-1', runAt: later })).toBe(false);
    });
    expect(await queue.add(db, 'test.keyed', { n: 3 }, { key: 'hour-1' })).toBe(false);
    // The key is per name, and keyless jobs never collide.
    expect(await queue.add(db, 'test.keyed.other', {}, { key: 'hour-1', runAt: later })).toBe(true);
    expect(await queue.add(db, 'test.keyed.other', {}, { runAt: later })).toBe(true);
    expect(await queue.add(db, 'test.keyed.other', {}, { runAt: later })).toBe(true);
    expect(await jobsNamed('test.keyed')).toBe(1);

    const runs: number[] = [];
    await queue.work({ 'test.keyed.now': async (p: { n: number }) => void runs.push(p.n) });
    expect(await queue.add(db, 'test.keyed.now', { n: 1 }, { key: 'k' })).toBe(true);
    await until(() => runs.length === 1);
    await until(async () => (await queue.add(db, 'test.keyed.now', { n: 2 }, { key: 'k' })) || false, 5000);
    await until(() => runs.length === 2);
    expect(runs).toEqual([1, 2]);
  }, 20_000);

  it('two workers take each of 200 jobs exactly once', async () => {
    const runs = new Map<number, number>();
    const by = [0, 0];
    const handler =
      (w: number): JobHandler =>
      async (p: { n: number }) => {
        runs.set(p.n, (runs.get(p.n) ?? 0) + 1);
        by[w]++;
        await sleep(2);
      };
    const [a, b] = [await worker(), await worker()];
    await a.work({ 'test.many': handler(0) });
    await b.work({ 'test.many': handler(1) });
    for (let t = 0; t < 20; t++)
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 10; i++) await a.add(trx, 'test.many', { n: t * 10 + i });
      });
    await until(() => runs.size === 200, 30_000);
    await sleep(1000);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(by[0] + by[1]).toBe(200);
    expect(by[0]).toBeGreaterThan(0);
    expect(by[1]).toBeGreaterThan(0);
  }, 60_000);

  it('a graceful stop finishes the job in hand', async () => {
    let started = 0;
    let finished = 0;
    const queue = await worker({ stopTimeoutMs: 5000 });
    await queue.work({
      'test.graceful': async () => {
        started++;
        await sleep(800);
        finished++;
      },
    });
    await queue.add(db, 'test.graceful', {});
    await until(() => started === 1);
    await queue.stop();
    expect(finished).toBe(1);
    // Completed, so nobody runs it again.
    const other = await worker();
    await other.work({ 'test.graceful': async () => void started++ });
    await sleep(3000);
    expect(started).toBe(1);
    expect((await other.failed()).filter((f) => f.name === 'test.graceful')).toEqual([]);
  }, 20_000);

  it('a stop that cannot wait releases the job in hand to another worker', async () => {
    const attempts: number[] = [];
    const queue = await worker({ stopTimeoutMs: 300 });
    await queue.work({
      'test.released': async (_p, job) => {
        attempts.push(job.attempt);
        await sleep(60_000);
      },
    });
    await queue.add(db, 'test.released', {});
    await until(() => attempts.length === 1);
    await queue.stop();
    const other = await worker();
    await other.work({ 'test.released': async (_p, job) => void attempts.push(job.attempt) });
    await until(() => attempts.length === 2, 10_000);
    expect(attempts).toEqual([1, 2]);
  }, 20_000);

  it('a job whose worker is killed mid-job runs again on another worker after its lease', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/hang.ts', import.meta.url));
    const child = spawn(process.execPath, [fixture], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    try {
      await until(() => out.includes('working'), 20_000);
      await worker().then((q) => q.add(db, 'test.hang', { n: 1 }));
      await until(() => out.includes('started'), 10_000);
    } finally {
      child.kill('SIGKILL');
    }
    const killedAt = Date.now();
    const again: number[] = [];
    const other = await worker();
    await other.work({ 'test.hang': async (_p, job) => void again.push(job.attempt) });
    await until(() => again.length === 1, 15_000);
    expect(again).toEqual([2]);
    // Not before the dead worker's lease (2 s) ran out.
    expect(Date.now() - killedAt).toBeGreaterThan(500);
  }, 40_000);

  it('measures jobs per second with two workers', async () => {
    const total = 2000;
    const seen = new Set<number>();
    let duplicates = 0;
    const noop: JobHandler = async (p: { n: number }) => {
      if (seen.has(p.n)) duplicates++;
      seen.add(p.n);
    };
    const [a, b] = [await worker({ concurrency: 20 }), await worker({ concurrency: 20 })];
    for (let t = 0; t < total / 100; t++)
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 100; i++) await a.add(trx, 'test.noop', { n: t * 100 + i });
      });
    const started = performance.now();
    await a.work({ 'test.noop': noop });
    await b.work({ 'test.noop': noop });
    await until(() => seen.size === total, 60_000);
    const perSecond = Math.round(total / ((performance.now() - started) / 1000));
    console.log(`jobs on ${kind}: ${perSecond} jobs/s (${total} no-op jobs, two workers)`);
    await sleep(500);
    expect(duplicates).toBe(0);
    if (kind === 'postgres') expect(perSecond).toBeGreaterThanOrEqual(500);
  }, 90_000);
});
