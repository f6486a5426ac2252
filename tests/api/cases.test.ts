import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf } from '../helpers/operations.ts';

// Case studies (issue 17, spec §4.7 / §2.6, docs/api/cases.md): 'case.edit' (admins; the first edit
// makes the event's case study), 'case.find' (public: every active one) and 'case.get' (public, by
// event), on both stores and in both call styles.

describe.each(STORES)('case studies on %s', (kind) => {
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
      body: { name: `Case ${seq}`, nickname: `case-${seq}` },
    });
    return eventID;
  }

  describe.each(STYLES)('%s style', (style) => {
    const c = () => client(p, style);
    const edit = (eventID: string, key: string, value: string, token = w.adminA) =>
      c().call('case.edit', { token, query: { eventID, key }, body: { value } });

    it('the first edit makes the case study; every key of §2.6 is set and read back', async () => {
      const eventID = await newEvent();
      await c().fail('case.get', { token: w.adminA, query: { eventID } }, 404, /^404 case study not found$/);
      const first = await edit(eventID, 'headline', 'Ten thousand people, one app');
      expect(first.status, first.text).toBe(200);
      expect(first.data[0]).toMatchObject({ eventID, eventName: `Case ${seq}`, headline: 'Ten thousand people, one app', attendees: '0', active: '0' }); // prettier-ignore
      const values: [string, string, string][] = [
        ['attendees', '10000', '10000'],
        ['downloads', '4200', '4200'],
        ['impressions', '1000000000', '1000000000'],
        ['challenges', '<p>Many <b>rooms</b><script>alert(1)</script></p>', '<p>Many <b>rooms</b></p>'],
        ['solution', '<p>One schedule</p>', '<p>One schedule</p>'],
        ['results', 'Happy people', 'Happy people'],
        ['videoKey', 'dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
        ['slideKey', 'deck-2037.v2', 'deck-2037.v2'],
        ['active', '1', '1'],
      ];
      for (const [key, value, shown] of values) {
        const r = await edit(eventID, key, value);
        expect(r.status, `${key}: ${r.text}`).toBe(200);
        expect(r.data[0][key]).toBe(shown);
      }
      const [row] = await c().ok('case.get', { query: { eventID } });
      expect(row).toMatchObject(Object.fromEntries(values.map(([k, , v]) => [k, v])));
      expect(Number(row.date)).toBeGreaterThan(1_700_000_000);
      // One case study per event: edits never make a second.
      const rows = await p.db.selectFrom('caseStudy').select('caseID').where('eventID', '=', Number(eventID)).execute(); // prettier-ignore
      expect(rows).toHaveLength(1);
      // An empty value clears (numbers to 0), but not active.
      expect((await edit(eventID, 'results', '')).data[0].results).toBe('');
      expect((await edit(eventID, 'attendees', '')).data[0].attendees).toBe('0');
      expect((await edit(eventID, 'active', '')).text).toBe('400 value cannot be empty (key active)');
    });

    it.each([
      ['attendees', '-1', '400 value must be an integer from 0 to 1000000000 (key attendees)'],
      ['downloads', '1.5', '400 value must be an integer from 0 to 1000000000 (key downloads)'],
      ['impressions', '1000000001', '400 value must be an integer from 0 to 1000000000 (key impressions)'],
      ['videoKey', 'https://youtu.be/x', '400 value must be letters, digits, _, - or . (at most 200), not a URL (key videoKey)'], // prettier-ignore
      ['slideKey', 'a b', '400 value must be letters, digits, _, - or . (at most 200), not a URL (key slideKey)'],
      ['active', '2', '400 value must be 0 or 1 (key active)'],
      ['headline', 'x'.repeat(301), '400 value must be at most 300 characters (key headline)'],
      ['date', '1', /^400 key date cannot be edited here; keys: attendees, downloads, impressions, headline, challenges, solution, results, videoKey, slideKey, active$/], // prettier-ignore
      ['caseID', '1', /^400 key caseID cannot be edited here/],
    ] as const)('refuses %s = %j and makes nothing', async (key, value, line) => {
      const eventID = await newEvent();
      const r = await edit(eventID, key, value);
      expect(r.status).toBe(400);
      if (typeof line === 'string') expect(r.text).toBe(line);
      else expect(r.text).toMatch(line);
      await c().fail('case.get', { token: w.adminA, query: { eventID } }, 404, /^404 case study not found$/);
    });

    it('case.find lists the active case studies only, newest edit first, paged; case.get shows an inactive one to its admins only', async () => {
      const before = idsOf(await c().ok('case.find', { query: { limit: 100 } }), 'eventID');
      const one = await newEvent();
      const two = await newEvent();
      const hidden = await newEvent();
      await edit(one, 'active', '1');
      await edit(hidden, 'headline', 'Not yet');
      await edit(two, 'active', '1');
      // Later runs (the other style) date theirs later still, so these two are the newest.
      await p.db
        .updateTable('caseStudy')
        .set({ date: 2_000_000_000 + seq })
        .where('eventID', '=', Number(two))
        .execute();
      await p.db
        .updateTable('caseStudy')
        .set({ date: 1_999_999_999 + seq })
        .where('eventID', '=', Number(one))
        .execute();
      const listed = idsOf(await c().ok('case.find', { query: { limit: 100 } }), 'eventID');
      expect(listed.slice(0, 2)).toEqual([two, one]);
      expect(listed).not.toContain(hidden);
      expect(listed.length).toBe(before.length + 2);
      const paged = await c().call('case.find', { query: { limit: 1, offset: 1, paginated: 1 } });
      expect(paged.total).toBe(String(before.length + 2));
      expect(idsOf(paged.data as Record<string, string>[], 'eventID')).toEqual([one]);

      // Inactive: missing to the public, to another company's admin and to an attendee; shown to the event's admins.
      for (const token of [undefined, w.adminB, w.attendee])
        await c().fail('case.get', { token, query: { eventID: hidden } }, 404, /^404 case study not found$/);
      expect((await c().ok('case.get', { token: w.adminA, query: { eventID: hidden } }))[0].headline).toBe('Not yet');
      await c().fail('case.get', { query: { eventID: '987654' } }, 404, /^404 case study not found$/);
      // Deactivated: gone from the public list at once.
      await edit(one, 'active', '0');
      expect(idsOf(await c().ok('case.find', { query: { limit: 100 } }), 'eventID')).not.toContain(one);
      await c().fail('case.get', { query: { eventID: one } }, 404, /^404 case study not found$/);
    });

    it("case.edit: another company's admin is answered as for a missing event; attendees and staff may not", async () => {
      const eventID = w.eventA.eventID;
      await c().fail('case.edit', { token: w.adminB, query: { eventID, key: 'headline' }, body: { value: 'x' } }, 404, /^404 event not found$/); // prettier-ignore
      for (const token of [w.attendee, w.staff, w.eventAdminEventScope])
        await c().fail('case.edit', { token, query: { eventID, key: 'headline' }, body: { value: 'x' } }, 403);
      await c().fail('case.edit', { query: { eventID, key: 'headline' }, body: { value: 'x' } }, 401);
    });
  });

  it('every write records its change in the change log', async () => {
    const eventID = await newEvent();
    const [{ caseID }] = await p.ok('case.edit', { token: w.adminA, query: { eventID, key: 'active' }, body: { value: '1' } }); // prettier-ignore
    const changes = await p.db
      .selectFrom('change')
      .select(['operation', 'objectID'])
      .where('eventID', '=', Number(eventID))
      .where('operation', '=', 'case.edit')
      .execute();
    expect(changes.map((x) => [x.operation, Number(x.objectID)])).toEqual([['case.edit', Number(caseID)]]);
  });
});
