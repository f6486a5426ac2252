import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStore } from '../../src/platform/db/connect.ts';
import {
  PASSWORD,
  operatorWithCompany,
  STORES,
  freshStore,
  startTestPlatform,
  type TestPlatform,
} from '../helpers/platform.ts';

const run = promisify(execFile);

describe.each(STORES)('store on %s', (kind) => {
  let p: TestPlatform;
  let operator: string;
  let companyID: string;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    ({ operator, companyID } = await operatorWithCompany(p, 'Store Co'));
  });
  afterAll(() => p?.close());

  it('migrates an empty store, and a second time does nothing', async () => {
    const store = await freshStore(kind);
    const { db } = openStore(store.url);
    try {
      await migrate(db);
      await migrate(db);
      const tables = (await db.introspection.getTables()).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(['person', 'token', 'company', 'event', 'eventPerson', 'billing']));
    } finally {
      await db.destroy();
      await store.drop();
    }
  });

  it('runs 60 concurrent writes and reads with no busy errors, and each unique nickname once', async () => {
    const writes = Array.from({ length: 60 }, (_, i) =>
      p.call('company.event.bind', {
        token: operator,
        query: { companyID },
        body: { name: `C${i}`, nickname: `c${i % 30}` },
      }),
    );
    const reads = Array.from({ length: 60 }, () => p.call('company.get', { query: { companyID } }));
    const replies = await Promise.all([...writes, ...reads]);
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 500)).toEqual([]);
    expect(statuses.slice(0, 60).filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.slice(0, 60).filter((s) => s === 409)).toHaveLength(30);
    const { n } = await p.db
      .selectFrom('event')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('companyID', '=', Number(companyID))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(30);
  });

  it('keeps serving while another process writes to the same store', async () => {
    // The CLI is a second process with its own connection: on SQLite this is where SQLITE_BUSY would show.
    const cli = Array.from({ length: 3 }, (_, i) =>
      run(
        process.execPath,
        ['bin/podium.js', 'admin', 'create', '--username', `cli${i}@podium.test`, '--password', PASSWORD],
        {
          env: { ...process.env, DATABASE_URL: p.platform.databaseUrl },
        },
      ),
    );
    const api = Array.from({ length: 40 }, (_, i) =>
      p.call('company.event.bind', {
        token: operator,
        query: { companyID },
        body: { name: `P${i}`, nickname: `p${i}` },
      }),
    );
    const [cliResults, apiResults] = await Promise.all([Promise.all(cli), Promise.all(api)]);
    expect(cliResults.map((r) => r.stdout)).toEqual(
      cliResults.map((_, i) => expect.stringContaining(`cli${i}@podium.test`)),
    );
    expect(apiResults.map((r) => r.status)).toEqual(apiResults.map(() => 200));
    expect(await p.signIn('cli0@podium.test', PASSWORD)).toHaveLength(60);
  });
});
