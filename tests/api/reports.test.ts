import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_CONTENT_TYPE } from '../../src/platform/excel.ts';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { until } from '../helpers/processes.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';

// Asynchronous spreadsheet reports (format=excel-daemon, spec §1.4) and the download center
// ('download.find', 'download.remove', 'download.file'): docs/api/reports.md. Files are read back with
// ExcelJS, cell by cell (formulas are never evaluated: a cell holds what the file says).

type Sheet = string[][];

/** The first sheet as rows of cell texts (row 1: the header); an empty cell reads ''. */
async function readSheet(bytes: Uint8Array): Promise<Sheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  const out: Sheet = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    const cells: string[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) {
      const v = row.getCell(c).value;
      if (v !== null && typeof v === 'object')
        throw new Error(`cell ${n}:${c} is not plain text: ${JSON.stringify(v)}`);
      cells.push(v === null || v === undefined ? '' : String(v));
    }
    out[n - 1] = cells;
  });
  return out;
}

/** A report's url, called with a token; the answer's bytes. */
async function fetchFile(p: TestPlatform, url: string, token: string | undefined, key?: string) {
  const u = new URL(url);
  const target = new URL(`${p.url}/`);
  for (const [k, v] of u.searchParams) target.searchParams.set(k, k === 'key' && key !== undefined ? key : v);
  if (token) target.searchParams.set('tokenID', token);
  const res = await fetch(target);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    bytes,
    text: Buffer.from(bytes).toString(),
  };
}

describe.each(STORES)('reports and the download center on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventID: string;
  let companyID: string;
  const NAMES = ['=HYPERLINK("http://x","y")', '+1+2', '-3', '@SUM(A1)', 'Plain Name', '-7'];

  beforeAll(async () => {
    p = await startTestPlatform(kind, { REPORT_PAGE_ROWS: '10' });
    w = await world(p);
    eventID = w.eventA.eventID;
    companyID = w.companyA.companyID;
    // 25 more attendees (three report pages of 10), some with names a spreadsheet would run.
    for (let i = 0; i < 25; i++) {
      const personID = await p.person(`p${String(i).padStart(2, '0')}@podium.test`, PASSWORD);
      // Private: their e-mail is hidden from other attendees' event-scope tokens (docs/api/attendees.md).
      await p.enrol(Number(eventID), personID, {
        name: NAMES[i % NAMES.length] + (i < NAMES.length ? '' : ` ${i}`),
        private: 1,
      });
    }
  });
  afterAll(() => p?.close());

  const report = async (token: string, query: Record<string, string>, style: 'rpc' | 'rest' = 'rpc') => {
    const rows = await client(p, style).ok('event.person.find', { token, query: { ...query, format: 'excel-daemon' } });
    expect(rows).toHaveLength(1);
    return rows[0];
  };
  const listed = async (token: string, downloadID: string) =>
    (await p.ok('download.find', { token, query: { companyID, limit: 100 } })).find((d) => d.downloadID === downloadID);
  const ready = async (token: string, downloadID: string) => {
    let row: Record<string, string> | undefined;
    await until(async () => {
      row = await listed(token, downloadID);
      return row?.state === 'ready' || row?.state === 'failed';
    }, `report ${downloadID} ready`);
    return row!;
  };

  it.each(STYLES)('answers at once with the queued report, then builds it (%s)', async (style) => {
    const queued = await report(w.adminA, { eventID, selection: 'all', order: 'name' }, style);
    expect(queued).toMatchObject({
      companyID,
      eventID,
      type: 'event.person.find',
      event: 'A One',
      memberName: 'admin-a@podium.test',
    });
    expect(['queued', 'running', 'ready']).toContain(queued.state);
    expect(queued.url).toMatch(/[?&]action=download\.file&downloadID=\d+&key=[A-Za-z0-9_-]{22}$/);
    expect(queued.title).toBe('event.person.find (selection=all, order=name)');
    const done = await ready(w.adminA, queued.downloadID);
    expect(done.state).toBe('ready');
    expect(Number(done.size)).toBeGreaterThan(0);
    expect(Number(done.expires)).toBeGreaterThan(Number(done.date) + 600_000);
    expect(done.url).toBe(queued.url);

    const file = await fetchFile(p, done.url, w.adminA);
    expect(file.status).toBe(200);
    expect(file.type).toBe(XLSX_CONTENT_TYPE);
    // Once each (fetch joins a header sent twice with ", ").
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="event-person-find-\d+\.xlsx"$/);
    expect(file.bytes.length).toBe(Number(done.size));
    const sheet = await readSheet(file.bytes);
    // The same columns and rows as format=excel of the whole list (one page of 100 holds it).
    const sync = await fetch(
      `${p.url}/?action=event.person.find&format=excel&tokenID=${w.adminA}&eventID=${eventID}&selection=all&order=name&limit=100`,
    );
    expect(await readSheet(new Uint8Array(await sync.arrayBuffer()))).toEqual(sheet);
    const names = sheet[0].indexOf('name');
    expect(sheet.length - 1).toBe(Number(done.progress));
    expect(sheet.length - 1).toBe(3 + 25);
    expect(names).toBeGreaterThanOrEqual(0);
    const column = sheet.slice(1).map((r) => r[names]);
    // Formula triggers are neutralized; plain signed numbers keep their value.
    expect(column).toContain(`'=HYPERLINK("http://x","y")`);
    expect(column).toContain("'+1+2");
    expect(column).toContain('-3');
    expect(column).toContain("'@SUM(A1)");
    expect(column.filter((n) => /^[=+@]/.test(n))).toEqual([]);
  });

  // Pages are read by key (the last row's sort key and personID), not by offset: orders whose keys tie
  // across pages of 10 (everyone's company is '', most levels are equal) and a descending one must give
  // every row once, in the order of format=excel.
  it.each([
    ['company', 'ASC'],
    ['level', 'DESC'],
    ['name', 'DESC'],
    ['enrollmentDate', 'ASC'],
  ])('reads the pages by key: order=%s %s holds the list of format=excel', async (order, orderOrientation) => {
    const query = { eventID, selection: 'all', order, orderOrientation };
    const done = await ready(w.adminA, (await report(w.adminA, query)).downloadID);
    const sheet = await readSheet((await fetchFile(p, done.url, w.adminA)).bytes);
    const sync = await fetch(
      `${p.url}/?${new URLSearchParams({ action: 'event.person.find', format: 'excel', tokenID: w.adminA, ...query, limit: '100' })}`,
    );
    expect(sheet).toEqual(await readSheet(new Uint8Array(await sync.arrayBuffer())));
    expect(sheet.length - 1).toBe(3 + 25);
  });

  it('records a change when a report is ready (webhooks and push hear of it)', async () => {
    const queued = await report(w.adminA, { eventID, selection: 'all' });
    await ready(w.adminA, queued.downloadID);
    const changes = await p.db
      .selectFrom('change')
      .select(['operation', 'kind', 'objectID', 'companyID'])
      .where('kind', '=', 'download')
      .where('objectID', '=', Number(queued.downloadID))
      .execute();
    expect(changes.map((c) => c.operation).sort()).toEqual(['download.create', 'download.ready']);
    expect(changes.every((c) => c.companyID === Number(companyID))).toBe(true);
  });

  it('holds only what the caller may see: an event-scope staff token gets limited records', async () => {
    const queued = await report(w.staff, { eventID, selection: 'all' });
    await until(async () => {
      const row = await p.db
        .selectFrom('download')
        .select('state')
        .where('downloadID', '=', Number(queued.downloadID))
        .executeTakeFirst();
      return row?.state === 'ready';
    }, 'staff report');
    const file = await fetchFile(p, queued.url, w.staff);
    expect(file.status).toBe(200);
    const sheet = await readSheet(file.bytes);
    const sync = await fetch(
      `${p.url}/?action=event.person.find&format=excel&tokenID=${w.staff}&eventID=${eventID}&selection=all&limit=100`,
    );
    expect(await readSheet(new Uint8Array(await sync.arrayBuffer()))).toEqual(sheet);
    const all = sheet.flat().join('\n');
    expect(all).not.toContain('p01@podium.test');
    // The staff's own report is not the admin's to fetch with an event-scope token of someone else.
    expect((await fetchFile(p, queued.url, w.attendee)).status).toBe(404);
  });

  it.each([
    ['not a list', 'event.get', { eventID: '$event' }, 400, /format excel-daemon is for the lists/],
    ['a write', 'download.remove', { downloadID: '1' }, 400, /format excel-daemon is for the lists/],
    ['no token', 'event.person.find', { eventID: '$event', selection: 'all' }, 401, /tokenID cannot be empty/],
    ['a public list without a token', 'activity.find', { eventID: '$event' }, 401, /tokenID cannot be empty/],
    ['a bad selection', 'event.person.find', { eventID: '$event', selection: 'nope' }, 400, /selection/],
  ] as const)('refuses %s', async (_what, name, query, status, message) => {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === '$event' ? eventID : v]));
    const token = status === 401 ? undefined : w.adminA;
    await client(p, 'rpc').fail(name, { token, query: { ...q, format: 'excel-daemon' } }, status, message);
  });

  it("refuses at once what the list refuses the caller (an event-scope token's hidden filter)", async () => {
    await client(p, 'rest').fail(
      'event.person.find',
      { token: w.staff, query: { eventID, selection: 'all', username: 'p0', format: 'excel-daemon' } },
      403,
      /cannot filter by username/,
    );
  });

  it('takes format=excel-daemon on other lists (activity.find, a public list, with a token)', async () => {
    await p.ok('activity.create', { token: w.adminA, query: { eventID }, body: { name: '=cmd' } });
    const [queued] = await p.ok('activity.find', { token: w.adminA, query: { eventID, format: 'excel-daemon' } });
    const done = await ready(w.adminA, queued.downloadID);
    const sheet = await readSheet((await fetchFile(p, done.url, w.adminA)).bytes);
    expect(sheet[1][sheet[0].indexOf('name')]).toBe("'=cmd");
  });

  it('sandbox=1 answers the report it would queue and keeps nothing', async () => {
    const before = await p.db
      .selectFrom('download')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const [queued] = await p.ok('event.person.find', {
      token: w.adminA,
      query: { eventID, selection: 'all', format: 'excel-daemon', sandbox: 1 },
    });
    expect(queued.state).toBe('queued');
    const after = await p.db
      .selectFrom('download')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  describe('download.file', () => {
    let url: string;
    beforeAll(async () => {
      url = (await ready(w.adminA, (await report(w.adminA, { eventID, selection: 'all' })).downloadID)).url;
    });

    it.each([
      ['a wrong key', (): string => w.adminA, 'AAAAAAAAAAAAAAAAAAAAAA', 404],
      ['a malformed key', (): string => w.adminA, 'short', 400],
      ['no token', (): string | undefined => undefined, undefined, 401],
      ["another company's admin", (): string => w.adminB, undefined, 404],
      ['an attendee of the event', (): string => w.attendee, undefined, 404],
      ['an external user of the company (not the asker)', (): string => w.externalA, undefined, 404],
    ] as const)('refuses %s', async (_who, token, key, status) => {
      const r = await fetchFile(p, url, token(), key);
      expect(r.text).toMatch(new RegExp(`^${status} `));
      expect(r.status).toBe(status);
    });

    it('gives the file to a company admin who did not ask (the operator) and to the asker', async () => {
      expect((await fetchFile(p, url, w.operator)).status).toBe(200);
      expect((await fetchFile(p, url, w.adminA)).status).toBe(200);
    });

    it('gives the file of a report queued before unknown names were refused (one kept with its query)', async () => {
      const downloadID = Number(new URL(url).searchParams.get('downloadID'));
      const kept = await p.db.selectFrom('download').select('params').where('downloadID', '=', downloadID).executeTakeFirstOrThrow(); // prettier-ignore
      // What such a report kept: a name the list ignored then (here a page language).
      const old = JSON.stringify({ ...JSON.parse(kept.params), lang: 'pt' });
      await p.db.updateTable('download').set({ params: old }).where('downloadID', '=', downloadID).execute();
      try {
        expect((await fetchFile(p, url, w.adminA)).status).toBe(200);
      } finally {
        await p.db.updateTable('download').set({ params: kept.params }).where('downloadID', '=', downloadID).execute();
      }
    });

    it('checks the rights again at download time: the asker who lost them is refused', async () => {
      const token = await p.signIn('event-admin@podium.test', PASSWORD);
      const [queued] = await p.ok('event.person.find', {
        token,
        query: { eventID, selection: 'all', format: 'excel-daemon' },
      });
      const personID = Number(queued.memberID);
      await until(async () => {
        const r = await p.db
          .selectFrom('download')
          .select('state')
          .where('downloadID', '=', Number(queued.downloadID))
          .executeTakeFirst();
        return r?.state === 'ready';
      }, 'event admin report');
      expect((await fetchFile(p, queued.url, token)).status).toBe(200);
      // Made with a system-scope token: an event-scope token of the same person is not enough.
      const eventScope = await p.signIn('event-admin@podium.test', `${PASSWORD} event`, Number(eventID));
      expect((await fetchFile(p, queued.url, eventScope)).status).toBe(403);
      await p.db.updateTable('eventPerson').set({ level: 1 }).where('personID', '=', personID).execute();
      const refused = await fetchFile(p, queued.url, token);
      expect(refused.text).toMatch(/^403 /);
      await p.db.updateTable('eventPerson').set({ level: 4 }).where('personID', '=', personID).execute();
    });

    it('is 409 while the report is not ready, 404 once it expired', async () => {
      const queued = await report(w.adminA, { eventID, selection: 'all' });
      await ready(w.adminA, queued.downloadID);
      await p.db
        .updateTable('download')
        .set({ state: 'queued' })
        .where('downloadID', '=', Number(queued.downloadID))
        .execute();
      // (Its job is done by now: its state is set back to queued to see the answer.)
      const early = await fetchFile(p, queued.url, w.adminA);
      expect(early.text).toMatch(/^409 download is not ready yet \(queued/);
      await p.db
        .updateTable('download')
        .set({ state: 'ready', expires: Math.floor(Date.now() / 1000) - 1 })
        .where('downloadID', '=', Number(queued.downloadID))
        .execute();
      expect((await fetchFile(p, queued.url, w.adminA)).text).toBe('404 download has expired');
      expect((await listed(w.adminA, queued.downloadID))!.state).toBe('expired');
    });
  });

  describe('download.find and download.remove', () => {
    it.each(STYLES)('lists the company reports to its admin, the own ones to other members (%s)', async (style) => {
      const c = client(p, style);
      const mine = await c.ok('company.event.find', { token: w.externalA, query: { companyID, selection: 'all' } });
      expect(mine).toBeDefined();
      const all = await c.ok('download.find', { token: w.adminA, query: { companyID, limit: 100 } });
      expect(all.length).toBeGreaterThan(1);
      expect(all.map((d) => Number(d.downloadID))).toEqual(
        [...all.map((d) => Number(d.downloadID))].sort((a, b) => b - a),
      );
      expect(await c.ok('download.find', { token: w.externalA, query: { companyID } })).toEqual([]);
      const page = await c.call('download.find', {
        token: w.adminA,
        query: { companyID, limit: 1, offset: 1, paginated: 1 },
      });
      expect(page.count).toBe(1);
      expect(page.total).toBe(String(all.length));
      await c.fail('download.find', { token: w.adminB, query: { companyID } }, 404, /company not found/);
      await c.fail('download.find', { query: { companyID } }, 401);
    });

    it.each(STYLES)('download.get: one record as download.find lists it; others get 404 (%s)', async (style) => {
      const c = client(p, style);
      const queued = await report(w.adminA, { eventID, selection: 'all' });
      const done = await ready(w.adminA, queued.downloadID);
      expect(await c.ok('download.get', { token: w.adminA, query: { downloadID: queued.downloadID } })).toEqual([done]);
      for (const token of [w.adminB, w.externalA])
        await c.fail('download.get', { token, query: { downloadID: queued.downloadID } }, 404, /^404 download not found$/); // prettier-ignore
      await c.fail('download.get', { query: { downloadID: queued.downloadID } }, 401);
    });

    it('an event-scope token of the asker reaches only the reports of its own event (spec §5.3)', async () => {
      const c = client(p, 'rest');
      const queued = await report(w.adminA, { eventID, selection: 'all' });
      await ready(w.adminA, queued.downloadID);
      // The same person, signed in to another company's event: that token acts in that event only.
      const eventB = Number(w.eventB.eventID);
      const personID = Number(queued.memberID);
      const password = 'another event password';
      const already = await p.db.selectFrom('eventPerson').select('personID').where('eventID', '=', eventB).where('personID', '=', personID).executeTakeFirst(); // prettier-ignore
      if (!already) await p.enrol(eventB, personID, { level: 1, passwordHash: await hashPassword(password) });
      const elsewhere = await p.signIn('admin-a@podium.test', password, eventB);
      const query = { downloadID: queued.downloadID };
      await c.fail('download.get', { token: elsewhere, query }, 404, /^404 download not found$/);
      await c.fail('download.remove', { token: elsewhere, query }, 404, /^404 download not found$/);
      expect(await listed(w.adminA, queued.downloadID)).toBeDefined();
      // The staff's event-scope token, in the event of its own report: still its own.
      const own = await report(w.staff, { eventID, selection: 'all' });
      await until(async () => (await c.call('download.get', { token: w.staff, query: { downloadID: own.downloadID } })).status === 200, 'own report'); // prettier-ignore
    });

    it.each(STYLES)('removes a report and its file; others get 404 (%s)', async (style) => {
      const c = client(p, style);
      const queued = await report(w.adminA, { eventID, selection: 'all' });
      const done = await ready(w.adminA, queued.downloadID);
      await c.fail(
        'download.remove',
        { token: w.adminB, query: { downloadID: queued.downloadID } },
        404,
        /download not found/,
      );
      await c.fail('download.remove', { token: w.externalA, query: { downloadID: queued.downloadID } }, 404);
      await c.ok('download.remove', { token: w.adminA, query: { downloadID: queued.downloadID, sandbox: 1 } });
      expect(await listed(w.adminA, queued.downloadID)).toBeDefined();
      const [gone] = await c.ok('download.remove', { token: w.adminA, query: { downloadID: queued.downloadID } });
      expect(gone).toEqual({ downloadID: queued.downloadID, companyID });
      const removed = await p.db
        .selectFrom('change')
        .select(['companyID'])
        .where('operation', '=', 'download.remove')
        .where('objectID', '=', Number(queued.downloadID))
        .execute();
      expect(removed).toEqual([{ companyID: Number(companyID) }]);
      expect(await listed(w.adminA, queued.downloadID)).toBeUndefined();
      expect((await fetchFile(p, done.url, w.adminA)).status).toBe(404);
      const pieces = await p.db
        .selectFrom('downloadChunk')
        .select('seq')
        .where('downloadID', '=', Number(queued.downloadID))
        .execute();
      expect(pieces).toEqual([]);
      await c.fail('download.remove', { token: w.adminA, query: { downloadID: queued.downloadID } }, 404);
    });
  });
});
