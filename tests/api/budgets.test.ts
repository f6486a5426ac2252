import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf } from '../helpers/operations.ts';

// Budgets (issue 17, spec §4.7 / §2.6, docs/api/budgets.md): 'budget.create', 'budget.edit',
// 'budget.remove', 'budget.get', 'budget.find', 'budget.getCategories', 'budget.getSuppliers' and
// 'budget.log.find', on both stores and in both call styles.

const EXPENSE = {
  title: 'Venue',
  description: 'Main hall, two days',
  type: 'raw',
  category: 'Venue',
  supplier: 'Hall Co',
  status: 'quoted',
  price: '1234.50',
  date: '1900000000',
};

describe.each(STORES)('budgets on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let seq = 0;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  async function newEvent() {
    seq++;
    const [{ eventID }] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: `Budget ${seq}`, nickname: `budget-${seq}` },
    });
    return eventID;
  }

  describe.each(STYLES)('%s style', (style) => {
    const c = () => client(p, style);
    const create = (eventID: string, body: Record<string, string> = {}) =>
      c().ok('budget.create', { token: w.adminA, query: { eventID }, body: { ...EXPENSE, ...body } });

    it('creates, reads, edits and removes an expense; every change is in the budget log', async () => {
      const eventID = await newEvent();
      const [made] = await create(eventID);
      expect(made).toEqual({ budgetID: made.budgetID, eventID, ...EXPENSE });
      const budgetID = made.budgetID;
      expect(await c().ok('budget.get', { token: w.adminA, query: { budgetID } })).toEqual([made]);

      const edit = (key: string, value: string) =>
        c().ok('budget.edit', { token: w.adminA, query: { budgetID, key }, body: { value } });
      expect((await edit('price', '99.9'))[0].price).toBe('99.90');
      expect((await edit('status', 'paid'))[0].status).toBe('paid');
      expect((await edit('category', ''))[0].category).toBe('');
      expect((await edit('title', 'Venue hire'))[0].title).toBe('Venue hire');
      expect((await edit('date', '1900086400'))[0].date).toBe('1900086400');
      // The same value again changes nothing and logs nothing.
      await edit('status', 'paid');

      const [removed] = await c().ok('budget.remove', { token: w.adminA, query: { budgetID } });
      expect(removed).toMatchObject({ budgetID, title: 'Venue hire', price: '99.90' });
      await c().fail('budget.get', { token: w.adminA, query: { budgetID } }, 404, /^404 budget not found$/);

      const logRows = await c().ok('budget.log.find', { token: w.adminA, query: { eventID, budgetID } });
      const adminID = logRows[0].personID;
      expect(logRows.map((r) => [r.key, r.oldValue, r.newValue])).toEqual(
        [
          ['create', '', 'Venue'],
          ['price', '1234.50', '99.90'],
          ['status', 'quoted', 'paid'],
          ['category', 'Venue', ''],
          ['title', 'Venue', 'Venue hire'],
          ['date', '1900000000', '1900086400'],
          ['remove', 'Venue hire', ''],
        ].reverse(),
      );
      for (const r of logRows) {
        expect(r).toMatchObject({ eventID, budgetID, personID: adminID, personName: 'admin-a@podium.test' });
        expect(Number(r.date)).toBeGreaterThan(1_700_000_000);
      }
      // Paged like every list.
      const page = await c().call('budget.log.find', {
        token: w.adminA,
        query: { eventID, budgetID, limit: 2, offset: 1, paginated: 1 },
      });
      expect(page.total).toBe('7');
      expect(page.data.map((r) => r.key)).toEqual(['date', 'title']);
    });

    it('find lists by date with the totals of each category, each type and the whole budget', async () => {
      const eventID = await newEvent();
      // 0.10 + 0.20 is 0.30 exactly: minor units, never floats.
      await create(eventID, { title: 'A', price: '0.1', category: 'Food', type: 'raw', date: '3', supplier: 'S1' });
      await create(eventID, { title: 'B', price: '0.2', category: 'Food', type: 'totalFlight', date: '1', supplier: 'S2' }); // prettier-ignore
      await create(eventID, { title: 'C', price: '999999999999.99', category: 'Hall', type: 'totalFlight', date: '2', supplier: '' }); // prettier-ignore
      await create(eventID, { title: 'D', price: '0', category: '', type: 'totalLodging', date: '4', status: 'paid' });
      const rows = await c().ok('budget.find', { token: w.adminA, query: { eventID } });
      expect(rows.map((r) => [r.title, r.categoryTotal, r.typeTotal, r.total])).toEqual([
        ['B', '0.30', '1000000000000.19', '1000000000000.29'],
        ['C', '999999999999.99', '1000000000000.19', '1000000000000.29'],
        ['A', '0.30', '0.10', '1000000000000.29'],
        ['D', '0.00', '0.00', '1000000000000.29'],
      ]);
      const find = async (query: Record<string, string | number>) =>
        idsOf(await c().ok('budget.find', { token: w.adminA, query: { eventID, ...query } }), 'title');
      expect(await find({ type: 'totalFlight' })).toEqual(['B', 'C']);
      expect(await find({ category: 'Food' })).toEqual(['B', 'A']);
      expect(await find({ supplier: 'S1' })).toEqual(['A']);
      expect(await find({ status: 'paid' })).toEqual(['D']);
      expect(await find({ query: 'c' })).toEqual(['C']);
      expect(await find({ limit: 2, offset: 1 })).toEqual(['C', 'A']);
      const paged = await c().call('budget.find', { token: w.adminA, query: { eventID, limit: 1, paginated: 1 } });
      expect(paged.total).toBe('4');

      expect(await c().ok('budget.getCategories', { token: w.adminA, query: { eventID } })).toEqual([
        { eventID, name: 'Food', expenses: '2', total: '0.30' },
        { eventID, name: 'Hall', expenses: '1', total: '999999999999.99' },
      ]);
      expect(await c().ok('budget.getSuppliers', { token: w.adminA, query: { eventID } })).toEqual([
        { eventID, name: 'Hall Co', expenses: '1', total: '0.00' },
        { eventID, name: 'S1', expenses: '1', total: '0.10' },
        { eventID, name: 'S2', expenses: '1', total: '0.20' },
      ]);
    });

    it('format=excel exports the expenses as a spreadsheet, formulas neutralized', async () => {
      const eventID = await newEvent();
      await create(eventID, { title: '=HYPERLINK("http://evil")', price: '10' });
      const query = new URLSearchParams({ tokenID: w.adminA, eventID, format: 'excel' });
      const url = style === 'rest' ? `${p.url}/budget/find?${query}` : `${p.url}/?action=budget.find&${query}`;
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/spreadsheetml/);
      const sheet = strFromU8(unzipSync(new Uint8Array(await res.arrayBuffer()))['xl/worksheets/sheet1.xml']);
      const cellsOf = [...sheet.matchAll(/<t xml:space="preserve">([^<]*)<\/t>/g)].map((m) => m[1]);
      expect(cellsOf.slice(0, 13)).toEqual(['budgetID', 'eventID', 'title', 'description', 'type', 'category', 'supplier', 'status', 'price', 'date', 'categoryTotal', 'typeTotal', 'total']); // prettier-ignore
      expect(cellsOf).toContain(`&apos;=HYPERLINK(&quot;http://evil&quot;)`);
      expect(cellsOf).toContain('10.00');
    });

    it.each([
      ['a negative price', { price: '-1' }, '400 price cannot be negative'],
      ['a negative price with spaces', { price: ' -0.5' }, '400 price cannot be negative'],
      ['a non-numeric price', { price: 'ten' }, /^400 price must be a decimal number such as 1234.50/],
      ['a price with a comma', { price: '12,50' }, /^400 price must be a decimal number/],
      ['three decimals', { price: '1.005' }, /^400 price must be a decimal number/],
      ['an exponent', { price: '1e3' }, /^400 price must be a decimal number/],
      ['a huge price', { price: '1000000000000' }, /^400 price must be a decimal number/],
      ['no price', { price: '' }, '400 price cannot be empty'],
      [
        'an unknown type',
        { type: 'totalHotel' },
        /^400 type must be one of raw, totalLodging, totalFlight, totalShuttle$/,
      ],
      ['a blank title', { title: '  ' }, '400 title cannot be blank'],
      ['no date', { date: '' }, '400 date cannot be empty'],
      ['no description', { description: '' }, '400 description cannot be empty'],
      ['a date that is no timestamp', { date: 'tomorrow' }, '400 date must be a Unix timestamp in seconds'],
    ] as const)('create refuses %s', async (_label, body, line) => {
      const eventID = await newEvent();
      const r = await c().call('budget.create', { token: w.adminA, query: { eventID }, body: { ...EXPENSE, ...body } });
      expect(r.status).toBe(400);
      if (typeof line === 'string') expect(r.text).toBe(line);
      else expect(r.text).toMatch(line);
      expect(await c().ok('budget.find', { token: w.adminA, query: { eventID } })).toEqual([]);
    });

    it.each([
      ['price', '-3', '400 value cannot be negative (key price)'],
      ['price', 'abc', /^400 value must be a decimal number such as 1234.50/],
      ['price', '', '400 value cannot be empty (key price)'],
      ['title', '', '400 value cannot be empty (key title)'],
      ['date', 'x', '400 value must be a Unix timestamp in seconds (key date)'],
      ['type', 'totalFlight', /^400 key type cannot be edited here; keys: title, description, category, supplier, status, price, date$/], // prettier-ignore
      ['budgetID', '5', /^400 key budgetID cannot be edited here/],
    ] as const)('edit of %s to %j is refused and logs nothing', async (key, value, line) => {
      const eventID = await newEvent();
      const [{ budgetID }] = await create(eventID);
      const r = await c().call('budget.edit', { token: w.adminA, query: { budgetID, key }, body: { value } });
      expect(r.status).toBe(400);
      if (typeof line === 'string') expect(r.text).toBe(line);
      else expect(r.text).toMatch(line);
      const logRows = await c().ok('budget.log.find', { token: w.adminA, query: { eventID, budgetID } });
      expect(logRows.map((x) => x.key)).toEqual(['create']);
    });

    it("another company's admin is answered as for a missing expense; attendees and staff may not", async () => {
      const eventID = w.eventA.eventID;
      const [{ budgetID }] = await create(eventID);
      for (const [name, query] of [
        ['budget.get', { budgetID }],
        ['budget.remove', { budgetID }],
      ] as const) {
        await c().fail(name, { token: w.adminB, query }, 404, /^404 budget not found$/);
        await c().fail(name, { token: w.adminB, query: { budgetID: 987654 } }, 404, /^404 budget not found$/);
        await c().fail(name, { token: w.attendee, query }, 403);
        await c().fail(name, { token: w.staff, query }, 403);
      }
      await c().fail('budget.edit', { token: w.adminB, query: { budgetID, key: 'title' }, body: { value: 'x' } }, 404, /^404 budget not found$/); // prettier-ignore
      for (const name of ['budget.find', 'budget.getCategories', 'budget.getSuppliers'])
        await c().fail(name, { token: w.adminB, query: { eventID } }, 404, /^404 event not found$/);
      await c().fail('budget.log.find', { token: w.adminB, query: { eventID, budgetID } }, 404, /^404 event not found$/); // prettier-ignore
      // Company B's admin naming A's expense through B's own event: the expense is not B's.
      await c().fail('budget.log.find', { token: w.adminB, query: { eventID: w.eventB.eventID, budgetID } }, 404, /^404 budget not found$/); // prettier-ignore
      await c().fail('budget.find', { token: w.attendee, query: { eventID } }, 403);
      // The event-scope admin is downgraded to a user (spec §5.3): no budgets.
      await c().fail('budget.find', { token: w.eventAdminEventScope, query: { eventID } }, 403);
      expect((await c().ok('budget.get', { token: w.eventAdminSystem, query: { budgetID } }))[0].budgetID).toBe(
        budgetID,
      );
    });

    it('sandbox=1 creates nothing and logs nothing', async () => {
      const eventID = await newEvent();
      const [made] = await c().ok('budget.create', { token: w.adminA, query: { eventID, sandbox: 1 }, body: EXPENSE });
      expect(made.title).toBe('Venue');
      expect(await c().ok('budget.find', { token: w.adminA, query: { eventID } })).toEqual([]);
      const logged = await p.db.selectFrom('budgetLog').selectAll().where('eventID', '=', Number(eventID)).execute();
      expect(logged).toEqual([]);
    });
  });

  it('every write records its change in the change log', async () => {
    const eventID = await newEvent();
    const [{ budgetID }] = await p.ok('budget.create', { token: w.adminA, query: { eventID }, body: EXPENSE });
    await p.ok('budget.edit', { token: w.adminA, query: { budgetID, key: 'price' }, body: { value: '5' } });
    await p.ok('budget.remove', { token: w.adminA, query: { budgetID } });
    const changes = await p.db
      .selectFrom('change')
      .select(['operation', 'objectID'])
      .where('eventID', '=', Number(eventID))
      .where('operation', 'like', 'budget.%')
      .orderBy('changeID')
      .execute();
    expect(changes.map((x) => [x.operation, Number(x.objectID)])).toEqual([
      ['budget.create', Number(budgetID)],
      ['budget.edit', Number(budgetID)],
      ['budget.remove', Number(budgetID)],
    ]);
  });
});
