import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBus, type BusOptions, type ChangeBus } from '../../src/platform/bus/bus.ts';
import { migrate, openStore } from '../../src/platform/db/connect.ts';
import type { DB } from '../../src/platform/db/schema.ts';
import { recordChange, type ChangeRow } from '../../src/platform/resources/change/log.ts';
import { freshStore, PG_URL, REDIS_URL, type StoreKind } from '../helpers/platform.ts';

// Two buses on one store stand for two processes: each has its own store connections (its own pool)
// and its own Redis or LISTEN connection, so killing one's connection leaves the other alone.

interface Case {
  name: string;
  store: StoreKind;
  redis: boolean;
  transport: ChangeBus['transport'];
}

const CASES: Case[] = [
  { name: 'in-process on SQLite', store: 'sqlite', redis: false, transport: 'memory' },
  { name: 'LISTEN/NOTIFY on PostgreSQL', store: 'postgres', redis: false, transport: 'postgres' },
  { name: 'Redis with a PostgreSQL store', store: 'postgres', redis: true, transport: 'redis' },
  { name: 'Redis with a SQLite store', store: 'sqlite', redis: true, transport: 'redis' },
];

/** Everything one bus's subscriber got, with when. */
function collect(bus: ChangeBus) {
  const got: ChangeRow[] = [];
  const at = new Map<number, number>();
  bus.subscribe((c) => {
    got.push(c);
    at.set(c.changeID, performance.now());
  });
  return { got, at, ids: () => got.map((c) => c.changeID) };
}

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const change = (n: number) => ({ operation: 'activity.edit', kind: 'activity', companyID: 1, eventID: 2, objectID: n });

/** A committed write: its change recorded in its own transaction. */
const write = (db: Kysely<DB>, n: number) => db.transaction().execute((trx) => recordChange(trx, change(n)));

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

describe.each(CASES)('bus: $name', (c) => {
  let url = '';
  let drop = async () => {};
  let dbA: Kysely<DB>;
  let dbB: Kysely<DB>;
  const buses: ChangeBus[] = [];
  const lines: string[] = [];
  const logger = { warn: (m: string) => void lines.push(m), info: (m: string) => void lines.push(m) };
  const tag = randomUUID().slice(0, 8);

  /** A bus for "process" `who`; the poll is slow unless a test is about the poll. */
  async function bus(db: Kysely<DB>, who: string, o: Partial<BusOptions> = {}): Promise<ChangeBus> {
    const b = await createBus({
      db,
      kind: c.store,
      databaseUrl: url,
      redisUrl: c.redis ? REDIS_URL : undefined,
      name: `bus-test-${tag}-${who}`,
      pollMs: 60_000,
      logger,
      ...o,
    });
    buses.push(b);
    return b;
  }

  beforeAll(async () => {
    ({ url, drop } = await freshStore(c.store));
    const a = openStore(url);
    await migrate(a.db);
    dbA = a.db;
    dbB = openStore(url).db;
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });
  afterAll(async () => {
    await dbA?.destroy();
    await dbB?.destroy();
    await drop();
  });

  it('uses the transport the configuration asks for', async () => {
    expect((await bus(dbA, 'A')).transport).toBe(c.transport);
  });

  it("delivers a change published through A to B's subscriber and A's own, once each, in order", async () => {
    const A = await bus(dbA, 'A');
    const B = await bus(dbB, 'B');
    const a = collect(A);
    const b = collect(B);
    const rows: ChangeRow[] = [];
    for (let n = 0; n < 5; n++) rows.push(await write(dbA, n));
    await A.publish(rows.slice(0, 3));
    await A.publish(rows.slice(3, 4));
    await A.publish(rows.slice(4));
    await until('both subscribers', () => a.got.length >= 5 && b.got.length >= 5);
    await sleep(200);
    expect(b.got).toEqual(rows);
    expect(a.got).toEqual(rows);
  });

  it('keeps stores apart: a bus on another store sharing the server hears nothing of this one', async () => {
    const other = await freshStore(c.store);
    const otherDB = openStore(other.url).db;
    try {
      await migrate(otherDB);
      const A = await bus(dbA, 'A');
      const C = await bus(otherDB, 'C', { databaseUrl: other.url });
      const a = collect(A);
      const elsewhere = collect(C);
      await A.publish([await write(dbA, 1)]);
      await until('A', () => a.got.length >= 1);
      await sleep(200);
      expect(elsewhere.got).toEqual([]);
      await C.close();
    } finally {
      await otherDB.destroy();
      await other.drop();
    }
  });

  it('delivers within milliseconds (200 changes, p99 under 1 s)', async () => {
    const A = await bus(dbA, 'A');
    const B = await bus(dbB, 'B');
    const b = collect(B);
    const sent = new Map<number, number>();
    for (let n = 0; n < 200; n++) {
      const row = await write(dbA, n);
      sent.set(row.changeID, performance.now());
      await A.publish([row]);
    }
    await until('200 changes at B', () => b.got.length >= 200);
    const ms = [...sent].map(([id, t]) => (b.at.get(id) ?? Infinity) - t).sort((x, y) => x - y);
    const [p50, p99] = [percentile(ms, 0.5), percentile(ms, 0.99)];
    console.log(
      `bus latency, ${c.name}: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${ms[199].toFixed(2)} ms`,
    );
    expect(b.got.length).toBe(200);
    expect(p99).toBeLessThan(1000);
  });

  it.skipIf(c.transport === 'memory')(
    'catches up from the change log after its connection drops: all 20 missed, none twice, in order',
    async () => {
      const A = await bus(dbA, 'A');
      // A slow first reconnect, so the 20 writes all happen while B is away.
      const B = await bus(dbB, 'B', { reconnectMs: 1500 });
      const a = collect(A);
      const b = collect(B);
      await kill(`bus-test-${tag}-B`);
      const rows: ChangeRow[] = [];
      for (let n = 0; n < 20; n++) {
        const row = await write(dbA, n);
        rows.push(row);
        await A.publish([row]);
      }
      // B really missed them: nothing arrived while it was away (its poll is a minute away).
      expect(b.got).toEqual([]);
      await until('B to catch up', () => b.got.length >= 20, 8000);
      await sleep(300);
      expect(b.got).toEqual(rows);
      expect(a.got).toEqual(rows);
      expect(lines.join('\n')).toMatch(/back; catching up/);
    },
  );

  it('delivers a change that was recorded but never published, through the poll', async () => {
    const A = await bus(dbA, 'A', { pollMs: 200 });
    const B = await bus(dbB, 'B', { pollMs: 200 });
    const a = collect(A);
    const b = collect(B);
    const row = await write(dbB, 1);
    // Committed, not delivered yet (no publish; the poll is 200 ms away): the settled id is below it,
    // so a reader resuming from there would replay it. (The log's newest id would be this one.)
    expect(A.settled()).toBeLessThan(row.changeID);
    await until('the unpublished change', () => a.got.length >= 1 && b.got.length >= 1, 3000);
    // Two polls after it was delivered, the settled id has passed it.
    await until('settled past it', () => A.settled() >= row.changeID, 3000);
    await sleep(500);
    expect(a.got).toEqual([row]);
    expect(b.got).toEqual([row]);
  });

  it.skipIf(c.store !== 'postgres')(
    'delivers a lower id that commits after a higher one (unpublished), once, through the poll',
    async () => {
      const B = await bus(dbB, 'B', { pollMs: 500 });
      const A = await bus(dbA, 'A');
      const b = collect(B);
      let commit = () => {};
      const held = new Promise<void>((resolve) => (commit = resolve));
      let lowRow: ChangeRow | undefined;
      const low = dbA.transaction().execute(async (trx) => {
        lowRow = await recordChange(trx, change(1));
        await held;
      });
      await until('the low id', () => lowRow !== undefined);
      const high = await write(dbA, 2);
      expect(high.changeID).toBeGreaterThan(lowRow!.changeID);
      await A.publish([high]);
      await until('the high id at B', () => b.got.length >= 1);
      // B heard the high id, not the low one: its settled id (where a stream's reader resumes) stays
      // below the low one, so a replay from it would still hold it.
      expect(B.settled()).toBeLessThan(lowRow!.changeID);
      // Less than a poll's worth later, the low one commits, and its process dies before publishing.
      await sleep(400);
      commit();
      await low;
      await until('the low id at B', () => b.got.length >= 2, 4000);
      await sleep(300);
      expect(b.ids()).toEqual([high.changeID, lowRow!.changeID]);
    },
  );

  it('sends a batch too big for one message as its id range; B reads it from the log, whole and once', async () => {
    const A = await bus(dbA, 'A');
    const B = await bus(dbB, 'B');
    const b = collect(B);
    // 1500 changes of one write (an import): past NOTIFY's 8000 bytes and the 64 KB kept for Redis.
    const rows = await dbA
      .transaction()
      .execute(async (trx) => Promise.all(Array.from({ length: 1500 }, (_, n) => recordChange(trx, change(n)))));
    rows.sort((x, y) => x.changeID - y.changeID);
    await A.publish(rows);
    await until('1500 changes at B', () => b.got.length >= 1500);
    await sleep(200);
    expect(b.got).toEqual(rows);
  });

  it.skipIf(c.transport === 'memory')('never throws when its server is unreachable, and logs no password', async () => {
    const before = lines.length;
    const unreachable = c.redis
      ? { redisUrl: 'redis://:s3cret-pw@127.0.0.1:1' }
      : { databaseUrl: 'postgres://postgres:s3cret-pw@127.0.0.1:1/test' };
    const A = await bus(dbA, 'A', { ...unreachable, pollMs: 200, connectWaitMs: 300 });
    const a = collect(A);
    const published = await write(dbA, 1);
    await A.publish([published]);
    // Its own subscribers still hear it, and a write by another process arrives through the poll.
    expect(a.got).toEqual([published]);
    const other = await write(dbB, 2);
    await until('the other write', () => a.got.length >= 2, 3000);
    expect(a.got).toEqual([published, other]);
    const logged = lines.slice(before);
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(line).toMatch(/^bus: [^\n]+$/);
    expect(logged.join('\n')).not.toContain('s3cret');
  });

  // (The in-process bus holds no socket, and its only timer, the poll, never keeps a process alive.)
  it.skipIf(c.transport === 'memory')('leaves no socket or timer behind once closed', async () => {
    // Fill the PostgreSQL pools first (10 connections each), so only the buses' own handles can
    // change the count; a SQLite store holds one handle per database from the start.
    if (c.store === 'postgres')
      await Promise.all(
        [dbA, dbB].flatMap((db) => Array.from({ length: 12 }, () => sql`select pg_sleep(0.02)`.execute(db))),
      );
    const handles = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'Timeout').length;
    const before = handles();
    const A = await bus(dbA, 'A', { pollMs: 100 });
    const B = await bus(dbB, 'B', { pollMs: 100 });
    collect(B);
    await A.publish([await write(dbA, 1)]);
    await sleep(250);
    expect(handles()).toBeGreaterThan(before);
    await Promise.all(buses.splice(0).map((x) => x.close()));
    await A.publish([await write(dbA, 2)]);
    await sleep(100);
    expect(handles()).toBeLessThanOrEqual(before);
  });

  /** Cuts the bus connection of the process named `name`, as a network blip or a server restart would. */
  async function kill(name: string): Promise<void> {
    if (c.redis) {
      const admin = new Redis(REDIS_URL);
      try {
        const list = String(await admin.client('LIST'));
        const ids = list
          .split('\n')
          .filter((l) => l.includes(` name=${name}:sub `))
          .map((l) => /\bid=(\d+)/.exec(l)?.[1]);
        expect(ids.length).toBe(1);
        await admin.client('KILL', 'ID', ids[0]!);
      } finally {
        admin.disconnect();
      }
      return;
    }
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as gone from pg_stat_activity where application_name = $1',
        [name],
      );
      expect(rows.length).toBe(1);
      // Gone for good before the test writes: a notification sent before the backend exits would still arrive.
      for (let i = 0; i < 200; i++) {
        const left = await admin.query('select 1 from pg_stat_activity where application_name = $1', [name]);
        if (left.rows.length === 0) break;
        await sleep(5);
      }
    } finally {
      await admin.end();
    }
  }
});
