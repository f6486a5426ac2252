import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStore } from '../../src/platform/db/connect.ts';
import type { DB } from '../../src/platform/db/schema.ts';
import { createJobQueue, type JobQueue } from '../../src/platform/jobs/queue.ts';
import { recordChange } from '../../src/platform/resources/change/log.ts';
import { freshStore, STORES } from '../helpers/platform.ts';

// `podium worker` end to end: a separate process that runs the platform's jobs. A change.prune job added
// here runs there (the change log keeps CHANGE_LOG_DAYS), the worker schedules the next hour's prune
// itself, and SIGTERM stops it cleanly.

const BIN = fileURLToPath(new URL('../../bin/podium.js', import.meta.url));
const DAY = 86_400_000;

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(STORES)('podium worker on %s', (kind) => {
  let url: string;
  let drop: () => Promise<void>;
  let db: Kysely<DB>;
  let queue: JobQueue;

  beforeAll(async () => {
    ({ url, drop } = await freshStore(kind));
    db = openStore(url).db;
    await migrate(db);
    queue = await createJobQueue({ db, kind, url });
  });

  afterAll(async () => {
    await queue.stop();
    await db.destroy();
    await drop();
  });

  it('runs change.prune from another process and stops on SIGTERM', async () => {
    await recordChange(db, { operation: 'test.old', kind: 'test' }, Date.now() - 10 * DAY);
    await recordChange(db, { operation: 'test.new', kind: 'test' }, Date.now() - DAY);
    const child = spawn(process.execPath, [BIN, 'worker'], {
      env: { ...process.env, DATABASE_URL: url, CHANGE_LOG_DAYS: '7', JOBS_POLL_MS: '200', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await until(async () => out.includes('Podium worker running jobs'), 20_000);
      await queue.add(db, 'change.prune', {});
      const operations = async () =>
        (await db.selectFrom('change').select('operation').execute()).map((r) => r.operation);
      await until(async () => !(await operations()).includes('test.old'));
      expect(await operations()).toEqual(['test.new']);
      // The worker added the next hour's prune, keyed by that hour: adding it again adds nothing. Not
      // asked near an hour's boundary: just before it the worker's job may run before the add, and just
      // after it the worker adds the new next hour's job only a second past the boundary (later on a
      // loaded machine).
      const intoHour = Date.now() % 3_600_000;
      const next = new Date(Date.now() - intoHour + 3_600_000);
      if (intoHour > 30_000 && intoHour < 3_600_000 - 5000) {
        const key = next.toISOString().slice(0, 13);
        expect(await queue.add(db, 'change.prune', {}, { key, runAt: next })).toBe(false);
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);
});
