// Several API processes on one store (issue 11, items 2 and 4): a write through one is served by the
// others within a second — their caches follow the change bus (Redis pub/sub, PostgreSQL
// LISTEN/NOTIFY, or in-process) — and a writer outside the API that logs its change (the seed, the
// CLI) reaches them through the change log. Two platforms in one test process, each with its own
// connections, stand for two processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { recordChange } from '../../src/platform/resources/change/log.ts';

const SETUPS = [
  ['sqlite', 'in-process bus', {}],
  ['postgres', 'LISTEN/NOTIFY', {}],
  ['postgres', 'Redis', { REDIS_URL }],
  ['sqlite', 'Redis', { REDIS_URL }],
] as const;

describe.each(SETUPS)('two API processes on %s, %s', (kind, _, env) => {
  let a: TestPlatform;
  let b: TestPlatform;
  let w: World;
  beforeAll(async () => {
    a = await startTestPlatform(kind, { ...env, BUS_POLL_MS: '200' });
    b = await startTestPlatform(kind, { ...env, BUS_POLL_MS: '200', DATABASE_URL: a.platform.databaseUrl });
    w = await world(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Ms until `read` through process B gives `expected`, at most 2 s. */
  async function msUntil(read: () => Promise<string>, expected: string): Promise<number> {
    const started = performance.now();
    while (performance.now() - started < 2000) {
      if ((await read()) === expected) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
    return Infinity;
  }

  it('an edit through A is served by B within a second, though B had the old answer cached', async () => {
    const eventID = w.eventA.eventID;
    const nameThroughB = async () => (await b.ok('event.get', { query: { eventID } }))[0].name;
    const took: number[] = [];
    for (let i = 0; i < 20; i++) {
      await nameThroughB(); // cached in B
      await a.ok('event.edit', { token: w.adminA, query: { eventID, key: 'name' }, body: { value: `Name ${i}` } });
      took.push(await msUntil(nameThroughB, `Name ${i}`));
    }
    took.sort((x, y) => x - y);
    console.log(
      `[${kind}, ${_}] edit through A → visible through B, ms: p50 ${took[10].toFixed(1)}, max ${took[19].toFixed(1)}`,
    );
    expect(took[19]).toBeLessThan(1000);
  });

  it('a writer outside the API that logs its change (as the seed and the CLI do) reaches B through the log', async () => {
    const eventID = Number(w.eventA.eventID);
    const nameThroughB = async () => (await b.ok('event.get', { query: { eventID } }))[0].name;
    await nameThroughB(); // cached in B
    // No publish: only the change log carries it (B's poll, every 200 ms here).
    await a.db.transaction().execute(async (trx) => {
      await trx.updateTable('event').set({ name: 'Renamed by a script' }).where('eventID', '=', eventID).execute();
      await recordChange(trx, { operation: 'cli', kind: 'event', eventID, companyID: Number(w.companyA.companyID) });
    });
    expect(await msUntil(nameThroughB, 'Renamed by a script')).toBeLessThan(1500);
  });
});
