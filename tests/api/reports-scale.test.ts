import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, freshStore, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { killAll, startPodiumProcess, until } from '../helpers/processes.ts';
import { seedAttendees } from '../../src/platform/seed/attendees.ts';

// A 100,000-row attendee report (format=excel-daemon, docs/api/reports.md) whose worker is killed
// mid-build: the API process only adds jobs (JOBS_WORK=0), a `podium worker` builds the report and is
// killed (SIGKILL) once some rows are written; a second worker takes the job when its lease runs out
// and the report completes, from the first row, with nothing of the first attempt left behind. The file
// is read back with ExcelJS's streaming reader, cell by cell where it is checked.

const ROWS = 100_000;

describe.each(STORES)('a 100,000-row report whose worker is killed, on %s', (kind) => {
  let p: TestPlatform;
  let drop: () => Promise<void>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const store = await freshStore(kind);
    drop = store.drop;
    env = {
      DATABASE_URL: store.url,
      SITE: '0',
      SEED_DEMO: '0',
      HOST: '127.0.0.1',
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      JOBS_WORK: '0',
      // Longer than one build on a loaded machine (a job past its lease is run again from the first row:
      // docs/api/reports.md), short enough for a test.
      JOBS_LEASE_SECONDS: '120',
      JOBS_POLL_MS: '100',
      JOBS_RETRY_SECONDS: '1',
    };
    p = await startTestPlatform(kind, env);
  }, 60_000);

  afterAll(async () => {
    await killAll();
    await p?.close();
    await drop?.();
  });

  it('completes after a restart, with every row', { timeout: 600_000 }, async () => {
    const { operator: token, companyID } = await operatorWithCompany(p, 'Scale');
    const [{ eventID }] = await p.ok('company.event.bind', {
      token,
      query: { companyID },
      body: { name: 'Big', nickname: 'big' },
    });
    await seedAttendees(p.db, Number(eventID), ROWS, 'scale');
    const state = () =>
      p.db
        .selectFrom('download')
        .select(['state', 'rows', 'attempt', 'error'])
        .where('downloadID', '=', Number(queued.downloadID))
        .executeTakeFirstOrThrow();

    const first = await startPodiumProcess('worker', env);
    const [queued] = await p.ok('event.person.find', {
      token,
      query: { eventID, selection: 'all', format: 'excel-daemon' },
    });
    await until(async () => (await state()).rows >= 3000, 'the first rows', 120_000, 50);
    await first.kill();
    const cut = await state();
    expect(cut.state).toBe('running');
    expect(cut.rows).toBeLessThan(ROWS);

    await startPodiumProcess('worker', env);
    await until(async () => ['ready', 'failed'].includes((await state()).state), 'the report', 480_000, 250);
    const done = await state();
    expect(done.error).toBe('');
    expect(done.state).toBe('ready');
    expect(done.attempt).toBeGreaterThan(cut.attempt);
    const count = await p.db
      .selectFrom('eventPerson')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('eventID', '=', Number(eventID))
      .executeTakeFirstOrThrow();
    expect(done.rows).toBe(Number(count.n));
    expect(done.rows).toBeGreaterThanOrEqual(ROWS);
    // Only the finished attempt's pieces are kept.
    const attempts = await p.db
      .selectFrom('downloadChunk')
      .select('attempt')
      .distinct()
      .where('downloadID', '=', Number(queued.downloadID))
      .execute();
    expect(attempts.map((a) => a.attempt)).toEqual([done.attempt]);

    const res = await fetch(`${queued.url.replace(/^https?:\/\/[^/]+/, p.url)}&tokenID=${token}`);
    expect(res.status).toBe(200);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.fromWeb(res.body as never), {
      worksheets: 'emit',
      sharedStrings: 'ignore',
      hyperlinks: 'ignore',
      styles: 'ignore',
    });
    const sync = await fetch(
      `${p.url}/?action=event.person.find&format=excel&tokenID=${token}&eventID=${eventID}&selection=all&limit=2`,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await sync.arrayBuffer()) as never);
    // A row's cell texts, column by column ('' where the row has no cell).
    const texts = (values: unknown, width: number) =>
      Array.from({ length: width }, (_, i) => (values as unknown[])[i + 1] ?? '');
    const width = book.worksheets[0].getRow(1).cellCount;
    const head = texts(book.worksheets[0].getRow(1).values, width);
    const second = texts(book.worksheets[0].getRow(3).values, width);
    let rows = 0;
    let roles = 0;
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        rows++;
        const values = texts(row.values, width);
        if (row.number === 1) expect(values).toEqual(head);
        if (row.number === 3) expect(values).toEqual(second);
        const role = values[head.indexOf('role')];
        if (typeof role === 'string' && role.includes('1+1')) {
          roles++;
          expect(role).toBe("'=1+1");
        }
      }
    }
    expect(rows).toBe(done.rows + 1);
    const formulas = await p.db
      .selectFrom('eventPerson')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('role', '=', '=1+1')
      .executeTakeFirstOrThrow();
    expect(roles).toBe(Number(formulas.n));
    expect(roles).toBeGreaterThan(30_000);
  });
});
