// company.event.find over real HTTP, in both call styles and on both stores (spec §4.2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_CONTENT_TYPE } from '../../src/platform/excel.ts';
import { LIST_FIELDS } from '../../src/platform/resources/event/service.ts';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf, nowSeconds, type Client } from '../helpers/operations.ts';

const DAY = 86400;
const HOUR = 3600;
type Letter = 'P' | 'F' | 'C' | 'A' | 'H' | 'O' | 'T' | 'D';

/**
 * One company, eight events, each with the data that makes a selection, filter or order discriminate.
 * Dates are relative to now: P past, F future (multi-day, online), C current (private), A archived,
 * H hidden, O created by the operator, T a template, D made from T. b/e: begin, end (seconds from now).
 */
const EVENTS: Record<
  Letter,
  { name: string; nickname: string; b: number; e: number; edits: Record<string, string | number> }
> = {
  P: { name: 'Past Meetup', nickname: 'past', b: -10 * DAY, e: -10 * DAY + 2 * HOUR, edits: { presential: 1, city: 'Lisbon', visible: 1, placeName: 'Hall A' } }, // prettier-ignore
  F: { name: 'Future Summit', nickname: 'future', b: 10 * DAY, e: 13 * DAY, edits: { city: 'Porto', visible: 1, timezone: 'America/Sao_Paulo', placeName: 'Hall B', language: 'pt', presential: 0 } }, // prettier-ignore
  C: { name: 'Current Workshop', nickname: 'current', b: -HOUR, e: HOUR, edits: { presential: 1, city: 'lisbon', visible: 1, accessCode: 4321, public: 0, placeName: 'Annex' } }, // prettier-ignore
  A: { name: 'Archived Fair', nickname: 'archived', b: -30 * DAY, e: -29 * DAY, edits: { presential: 1, visible: 1, archived: 1 } }, // prettier-ignore
  H: { name: 'Hidden Retreat', nickname: 'hidden', b: 5 * DAY, e: 5 * DAY + 3 * HOUR, edits: {} },
  O: { name: 'Operator Gala', nickname: 'by-op', b: 20 * DAY, e: 22 * DAY, edits: { presential: 1, visible: 1 } },
  T: { name: 'Template Base', nickname: 'template', b: 100 * DAY, e: 100 * DAY + HOUR, edits: {} },
  D: { name: 'From Template', nickname: 'from-template', b: 100 * DAY, e: 100 * DAY + HOUR, edits: {} },
};
/** Registrations (eventPerson rows): who, approved, and for the attendee paid/present/level. */
const ENTRIES: Partial<
  Record<Letter, { approved: number; paid?: number; present?: number; level?: number; who: 'attendee' | 'x1' | 'x2' }[]>
> = {
  // prettier-ignore
  P: [{ who: 'attendee', approved: 1, paid: 1, present: 1 }, { who: 'x1', approved: 1 }, { who: 'x2', approved: 0 }],
  C: [
    { who: 'attendee', approved: 0, level: 65 },
    { who: 'x1', approved: 1 },
  ],
  H: [{ who: 'attendee', approved: -1 }],
  F: [{ who: 'x2', approved: 1 }],
};
const ALL: Letter[] = ['P', 'F', 'C', 'A', 'H', 'O', 'T', 'D'];
const OPEN: Letter[] = ['P', 'F', 'O']; // visible, public, unarchived, not templates

describe.each(STORES)('company.event.find on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let companyID: string;
    let namespace: string;
    const id = {} as Record<Letter, string>;
    const tag = { t1: '', t2: '' };
    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
      const now = nowSeconds();
      [{ companyID, namespace }] = await c.ok('company.create', { token: w.operator, body: { shortName: 'Find Co' } });
      await c.ok('company.person.bind', {
        token: w.operator,
        query: { companyID },
        body: { name: 'A', email: 'admin-a@podium.test' },
      });
      for (const l of ALL) {
        const ev = EVENTS[l];
        const query = { companyID, ...(l === 'T' ? { isTemplate: 1 } : l === 'D' ? { templateID: id.T } : {}) };
        const token = l === 'O' ? w.operator : w.adminA;
        const [row] = await c.ok('company.event.bind', {
          token,
          query,
          body: { name: ev.name, nickname: ev.nickname },
        });
        id[l] = row.eventID;
        const edits = l === 'D' ? ev.edits : { dateBegin: now + ev.b, dateEnd: now + ev.e, ...ev.edits };
        for (const [key, value] of Object.entries(edits))
          await c.ok('event.edit', { token, query: { eventID: row.eventID, key }, body: { value } });
      }
      // Not editable through the API: the place, tags and registrations go straight into the store.
      await p.db.updateTable('event').set({ placeID: 7 }).where('eventID', '=', Number(id.F)).execute();
      for (const t of ['t1', 't2'] as const)
        tag[t] = String(
          (
            await p.db
              .insertInto('tag')
              .values({ companyID: Number(companyID), name: t, kind: 'event' })
              .returning('tagID')
              .executeTakeFirstOrThrow()
          ).tagID,
        );
      const tagged: [Letter, string][] = [
        ['P', tag.t1],
        ['F', tag.t2],
        ['C', tag.t1],
        ['C', tag.t2],
      ];
      await p.db
        .insertInto('eventTag')
        .values(tagged.map(([l, t]) => ({ eventID: Number(id[l]), tagID: Number(t) })))
        .execute();
      const person = {
        attendee: w.attendeeID,
        x1: await p.person('x1@find.test', 'x1 password'),
        x2: await p.person('x2@find.test', 'x2 password'),
      };
      for (const [l, rows] of Object.entries(ENTRIES))
        for (const r of rows)
          await p.db
            .insertInto('eventPerson')
            .values({
              eventID: Number(id[l as Letter]),
              personID: person[r.who],
              approved: r.approved,
              paid: r.paid ?? 0,
              present: r.present ?? 0,
              level: r.level ?? 1,
            })
            .execute();
    });
    afterAll(() => p?.close());

    /** The letters of the answer, in answer order; as the company admin by default, null: anonymous. */
    const find = async (query: Record<string, string | number>, token: string | null = w.adminA) => {
      const rows = await c.ok('company.event.find', {
        token: token ?? undefined,
        query: { companyID, limit: 100, ...query },
      });
      const byID = Object.fromEntries(ALL.map((l) => [id[l], l]));
      return rows.map((r) => byID[r.eventID] ?? `?${r.eventID}`);
    };
    /** Letters in the default order (dateBegin ascending, then eventID). */
    const inDefaultOrder = (letters: Letter[]) =>
      [...letters].sort((a, b) => EVENTS[a].b - EVENTS[b].b || Number(id[a]) - Number(id[b]));

    it.each([
      ['all', ALL],
      ['my-events-created', ['P', 'F', 'C', 'A', 'H', 'T', 'D']],
      ['next-events', ['F', 'H', 'O', 'T', 'D']],
      ['past-events', ['P', 'A']],
      ['current-events', ['C']],
      ['single-day-events', ['P', 'C', 'A', 'H', 'T', 'D']],
      ['multi-day-events', ['F', 'O']],
      ['online-events', ['F', 'H', 'T', 'D']],
      ['presential-events', ['P', 'C', 'A', 'O']],
      ['archived', ['A']],
      ['not-archived', ['P', 'F', 'C', 'H', 'O', 'T', 'D']],
      ['best-fit', ['F', 'C', 'O']],
      ['tags:T1', ['P', 'C']],
      ['tags:T2', ['F', 'C']],
      ['tags:T1,T2', ['P', 'F', 'C']],
      ['presential-events|tags:T1', ['P', 'C']],
      ['next-events|online-events', ['F', 'H', 'T', 'D']],
      ['not-archived|single-day-events|presential-events', ['P', 'C']],
      ['past-events|multi-day-events', []],
    ] as [string, Letter[]][])('a company admin’s selection %s', async (selection, expected) => {
      const s = selection.replace('T1', tag.t1).replace('T2', tag.t2);
      expect(await find({ selection: s })).toEqual(inDefaultOrder(expected));
    });

    it.each([
      ['all', OPEN.concat(['C', 'H'])], // the public ones and those the attendee is registered in
      ['my-events', ['P', 'C']],
      ['enrolled', ['P', 'C']],
      ['approved', ['P']],
      ['denied', ['C']], // registered and not approved (spec §3)
      ['paid', ['P']],
      ['present', ['P']],
      ['working', ['C']],
      ['my-events-created', []],
      ['enrolled|current-events', ['C']],
      ['approved|past-events', ['P']],
    ] as [string, Letter[]][])('an attendee’s personal selection %s', async (selection, expected) => {
      expect(await find({ selection }, w.attendeeSystem)).toEqual(inDefaultOrder(expected));
    });

    it('shows the caller’s registration state as approved', async () => {
      const rows = await c.ok('company.event.find', {
        token: w.attendeeSystem,
        query: { companyID, selection: 'all' },
      });
      const approved = Object.fromEntries(rows.map((r) => [r.eventID, r.approved]));
      expect(approved).toEqual({ [id.P]: '1', [id.C]: '0', [id.H]: '-1', [id.F]: '-1', [id.O]: '-1' });
      expect(Object.keys(rows[0]).sort()).toEqual([...LIST_FIELDS, 'companyID', 'timezone', 'language'].sort());
      const future = rows.find((r) => r.eventID === id.F)!;
      expect(future).toMatchObject({
        name: 'Future Summit',
        city: 'Porto',
        timezone: 'America/Sao_Paulo',
        language: 'pt',
        companyID,
      });
    });

    it('without a token lists only visible, public, unarchived events, by companyID or namespace', async () => {
      for (const query of [{ companyID }, { namespace }, { namespace: namespace.toUpperCase() }] as Record<
        string,
        string
      >[]) {
        const rows = await c.ok('company.event.find', { query: { ...query, selection: 'all' } });
        expect(rows.map((r) => r.eventID)).toEqual(inDefaultOrder(OPEN).map((l) => id[l]));
      }
      expect(await find({ selection: 'next-events' }, null)).toEqual(['F', 'O']);
      expect(await find({ selection: 'all' }, w.adminB)).toEqual(inDefaultOrder(OPEN)); // unrelated person
      // An event-scope token sees its own event only.
      expect(await find({ selection: 'all' }, w.attendee)).toEqual([]);
      const ofA = await c.ok('company.event.find', {
        token: w.attendee,
        query: { companyID: w.companyA.companyID, selection: 'all' },
      });
      expect(idsOf(ofA, 'eventID')).toEqual([w.eventA.eventID]);
      for (const selection of ['my-events', 'approved|all', 'working'])
        await c.fail('company.event.find', { query: { companyID, selection } }, 401);
    });

    it('reflects edits in anonymous answers at once', async () => {
      expect(await find({ selection: 'all', name: 'gala' }, null)).toEqual(['O']);
      await c.ok('event.edit', { token: w.operator, query: { eventID: id.O, key: 'accessCode' }, body: { value: 1 } });
      await c.ok('event.edit', { token: w.operator, query: { eventID: id.O, key: 'public' }, body: { value: 0 } });
      expect(await find({ selection: 'all', name: 'gala' }, null)).toEqual([]);
      await c.ok('event.edit', { token: w.operator, query: { eventID: id.O, key: 'public' }, body: { value: 1 } });
      expect(await find({ selection: 'all', name: 'gala' }, null)).toEqual(['O']);
    });

    it('takes %, _ and \\ in the name filter literally, not as wildcards', async () => {
      for (const name of ['%', '_', 'a_', '\\', 'p%p'])
        expect(await find({ selection: 'all', name }), name).toEqual([]);
      const rename = (value: string) =>
        c.ok('event.edit', { token: w.operator, query: { eventID: id.O, key: 'name' }, body: { value } });
      await rename('Operator Gala 100% of_fun \\o/');
      for (const name of ['%', '_', '0% OF_', '\\o/'])
        expect(await find({ selection: 'all', name }), name).toEqual(['O']);
      await rename(EVENTS.O.name);
    });

    const FILTERS: [string, string | ((n: number) => string), Letter[]][] = [
      ['name', 'SUMMIT', ['F']],
      ['name', 'template', ['T', 'D']],
      ['city', 'LISBON', ['P', 'C']],
      ['dateBegin', (now) => String(now), ['F', 'H', 'O', 'T', 'D']],
      ['dateEnd', (now) => String(now), ['P', 'A']],
      ['presential', '1', ['P', 'C', 'A', 'O']],
      ['presential', '0', ['F', 'H', 'T', 'D']],
      ['public', '0', ['C']],
      ['visible', '0', ['H', 'T', 'D']],
      ['archived', '1', ['A']],
      ['templateID', 'T', ['D']],
      ['placeID', '7', ['F']],
      ['timezone', 'America/Sao_Paulo', ['F']],
      ['tags', 'T1', ['P', 'C']],
      ['tags', 'T1,T2', ['P', 'F', 'C']],
    ];
    const filterValue = (v: string | ((n: number) => string)) => {
      const raw = typeof v === 'function' ? v(nowSeconds()) : v;
      return raw === 'T' ? id.T : raw.replace('T1', tag.t1).replace('T2', tag.t2);
    };

    it.each(FILTERS)('filter %s=%s', async (name, value, expected) => {
      expect(await find({ selection: 'all', [name]: filterValue(value) })).toEqual(inDefaultOrder(expected));
    });

    it.each(FILTERS)('query with queryKey=%s (%s)', async (queryKey, value, expected) => {
      expect(await find({ selection: 'all', queryKey, query: filterValue(value) })).toEqual(inDefaultOrder(expected));
    });

    it('combines filters, query and selection with AND', async () => {
      expect(await find({ selection: 'all', city: 'lisbon', public: 1 })).toEqual(['P']);
      expect(await find({ selection: 'presential-events', queryKey: 'name', query: 'work' })).toEqual(['C']);
      expect(await find({ selection: 'all', name: 'template', queryKey: 'visible', query: '0' })).toEqual(['T', 'D']);
      expect(await find({ selection: 'all', name: 'retreat', queryKey: 'visible', query: '1' })).toEqual([]);
    });

    const VALUES: Record<string, (l: Letter) => string | number> = {
      eventID: (l) => Number(id[l]),
      name: (l) => EVENTS[l].name,
      nickname: (l) => EVENTS[l].nickname,
      dateBegin: (l) => EVENTS[l].b,
      dateEnd: (l) => EVENTS[l].e,
      city: (l) => String(EVENTS[l].edits.city ?? ''),
      entries: (l) => ENTRIES[l]?.length ?? 0,
      approved: (l) => ENTRIES[l]?.filter((r) => r.approved === 1).length ?? 0,
      placeName: (l) => String(EVENTS[l].edits.placeName ?? ''),
    };
    it.each(
      Object.keys(VALUES).flatMap((order) => [
        [order, 'ASC'],
        [order, 'DESC'],
        [order, undefined],
      ]),
    )('order=%s orderOrientation=%s', async (order, orientation) => {
      const sign = orientation === 'DESC' ? -1 : 1;
      const v = VALUES[order!];
      const expected = [...ALL].sort((a, b) => {
        const [x, y] = [v(a), v(b)];
        return sign * (x < y ? -1 : x > y ? 1 : Number(id[a]) - Number(id[b]));
      });
      const query = { selection: 'all', order: order!, ...(orientation ? { orderOrientation: orientation } : {}) };
      expect(await find(query)).toEqual(expected);
    });

    it('orders by dateBegin ascending by default, DESC alone reverses it', async () => {
      expect(await find({ selection: 'all' })).toEqual(inDefaultOrder(ALL));
      expect(await find({ selection: 'all', orderOrientation: 'DESC' })).toEqual(inDefaultOrder(ALL).reverse());
    });

    it('pages with limit and offset; paginated=1 adds the total', async () => {
      const all = await find({ selection: 'all', order: 'eventID' });
      const r = await c.call('company.event.find', {
        token: w.adminA,
        query: { companyID, selection: 'all', order: 'eventID', limit: 3, offset: 2, paginated: 1 },
      });
      expect(r.total).toBe('8');
      expect(r.data.map((x) => x.eventID)).toEqual(all.slice(2, 5).map((l) => id[l]));
      const sel = await c.call('company.event.find', {
        token: w.adminA,
        query: { companyID, selection: 'past-events', paginated: 1, limit: 1 },
      });
      expect([sel.total, sel.count]).toEqual(['2', 1]);
      const anon = await c.call('company.event.find', { query: { companyID, selection: 'all', paginated: 1 } });
      expect(anon.total).toBe('3');
      const plain = await c.call('company.event.find', {
        token: w.adminA,
        query: { companyID, selection: 'all', limit: 5 },
      });
      expect([plain.total, plain.count]).toEqual([undefined, 5]);
      expect(
        (await c.call('company.event.find', { token: w.adminA, query: { companyID, selection: 'all', offset: 7 } }))
          .count,
      ).toBe(1);
    });

    it('answers a spreadsheet with format=excel', async () => {
      const r = await c.call('company.event.find', {
        token: w.adminA,
        query: { companyID, selection: 'all', format: 'excel' },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(XLSX_CONTENT_TYPE);
      expect(r.headers.get('content-disposition')).toContain('company-event-find.xlsx');
    });

    it.each([
      ['no selection', {}, 400],
      ['an unknown selection', { selection: 'all|soon' }, 400],
      ['an empty tag list', { selection: 'tags:' }, 400],
      ['a bad tag list', { selection: 'tags:1,x' }, 400],
      ['presential=2', { selection: 'all', presential: 2 }, 400],
      ['an unknown time zone', { selection: 'all', timezone: 'Mars/Base' }, 400],
      ['bad tags', { selection: 'all', tags: 'a' }, 400],
      ['a bad dateBegin', { selection: 'all', dateBegin: '-1' }, 400],
      ['templateID=0', { selection: 'all', templateID: 0 }, 400],
      ['query without queryKey', { selection: 'all', query: 'x' }, 400],
      ['queryKey without query', { selection: 'all', queryKey: 'name' }, 400],
      ['an unknown queryKey', { selection: 'all', queryKey: 'password', query: 'x' }, 400],
      ['a query invalid for its key', { selection: 'all', queryKey: 'presential', query: '2' }, 400],
      ['an unknown order', { selection: 'all', order: 'rand' }, 400],
      ['a bad orderOrientation', { selection: 'all', orderOrientation: 'up' }, 400],
      ['limit 101', { selection: 'all', limit: 101 }, 400],
      ['an unknown company', { selection: 'all', companyID: '999999' }, 404],
      ['an unknown namespace', { selection: 'all', companyID: '', namespace: 'nobody-here' }, 404],
      ['no company', { selection: 'all', companyID: '' }, 400],
    ])('refuses %s', async (_, query, status) => {
      await c.fail('company.event.find', { token: w.adminA, query: { companyID, ...query } }, status);
    });
  });
});
