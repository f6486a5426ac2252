import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/platform/db/connect.ts';
import { NodeSqliteDialect } from '../../src/platform/db/sqlite.ts';

// The SQLite store's checkpoints on a thread of their own (db/checkpointer.ts, docs/deploy.md "SQLite").
// What the writing thread does is seen in the files: the database file takes the log's pages only when
// some thread checkpoints, and SQLite's own threshold (1,000 pages, 4 MB) is above what these tests
// write, so only the checkpointer can have copied them.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function storeWith(checkpointMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'podium-ckpt-'));
  dirs.push(dir);
  const path = join(dir, 's.db');
  const { db } = openStore(`file:${path}`, { sqliteCheckpointMs: checkpointMs });
  await sql`create table t (id integer primary key, v blob)`.execute(db);
  return { db, path };
}

/** 2 MB in 200 commits of 10 KB each. */
async function write(db: Awaited<ReturnType<typeof storeWith>>['db']) {
  const v = new Uint8Array(10_000).fill(7);
  for (let i = 0; i < 200; i++) await sql`insert into t (v) values (${v})`.execute(db);
}

async function fileSizeWithin(path: string, ms: number, atLeast: number) {
  for (const end = Date.now() + ms; Date.now() < end && statSync(path).size < atLeast;)
    await new Promise((r) => setTimeout(r, 20));
  return statSync(path).size;
}

describe('SQLite checkpoints', () => {
  it.each([
    { checkpointMs: 20, copied: true, autocheckpoint: 10_000 },
    { checkpointMs: 0, copied: false, autocheckpoint: 1000 },
  ])(
    'checkpointMs $checkpointMs: the file takes the log’s pages: $copied',
    async ({ checkpointMs, copied, autocheckpoint }) => {
      const { db, path } = await storeWith(checkpointMs);
      try {
        const threshold = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
        expect(threshold.rows[0]!.wal_autocheckpoint).toBe(autocheckpoint);
        await write(db);
        // Waited for either way: without a checkpointer the file must still be small after it.
        const size = await fileSizeWithin(path, copied ? 5000 : 500, 2_000_000);
        expect(size >= 2_000_000).toBe(copied);
        const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
        expect(rows[0]!.n).toBe(200);
      } finally {
        await db.destroy();
      }
    },
  );

  it('stops its thread when the store closes, and what was written stays', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    // The same steps without a checkpointer first, so whatever they start for good (libuv's pool) is
    // already running when the threads are counted.
    const warm = await storeWith(0);
    await write(warm.db);
    await warm.db.destroy();
    const before = threads();
    const { db, path } = await storeWith(20);
    await write(db);
    expect(threads()).toBeGreaterThan(before);
    await db.destroy();
    expect(threads()).toBe(before);
    const again = openStore(`file:${path}`).db;
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(again);
    expect(rows[0]!.n).toBe(200);
    await again.destroy();
  });

  it('writes and reads while checkpoints run, and the log starts over (bounded) under a stream of writes', async () => {
    const { db, path } = await storeWith(5);
    try {
      const v = new Uint8Array(4000).fill(1);
      // 15,000 commits of two pages or more: a log that never started over would pass 30,000 pages. The
      // writing thread's checkpoint at 10,000 pages may find the checkpointer's under way and try again
      // at a later commit (CI once saw 18,000 pages before the checkpointer left it rounds), so the bound
      // is above it.
      for (let i = 0; i < 15_000; i++) await sql`insert into t (v) values (${v})`.execute(db);
      const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
      expect(rows[0]!.n).toBe(15_000);
      expect(statSync(`${path}-wal`).size).toBeLessThan(20_000 * 4120);
    } finally {
      await db.destroy();
    }
  });

  it('says in one line when its thread cannot start, and the store goes on writing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podium-ckpt-'));
    dirs.push(dir);
    const path = join(dir, 's.db');
    const lines: string[] = [];
    const driver = new NodeSqliteDialect(path, { checkpointMs: 20, report: (l) => lines.push(l) }).createDriver();
    await driver.init();
    // The thread opens the file by its name a few ms later (a new isolate boots first): by then the name
    // is a directory, which SQLite cannot open. The writing connection keeps the file it opened.
    renameSync(path, `${path}.kept`);
    mkdirSync(path);
    for (const end = Date.now() + 5000; Date.now() < end && lines.length === 0;)
      await new Promise((r) => setTimeout(r, 20));
    expect(lines).toEqual([
      expect.stringMatching(
        /^sqlite: the checkpoint thread stopped \(.+\); the writing thread checkpoints past 10000 log pages$/,
      ),
    ]);
    const connection = await driver.acquireConnection();
    await connection.executeQuery(CompiledQuery.raw('create table t (id integer primary key)'));
    await connection.executeQuery(CompiledQuery.raw('insert into t (id) values (1)'));
    const { rows } = await connection.executeQuery<{ n: number }>(CompiledQuery.raw('select count(*) as n from t'));
    expect(rows[0]!.n).toBe(1);
    await driver.releaseConnection(connection);
    await driver.destroy();
  });
});
