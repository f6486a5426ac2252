// Activity relations (spec §4.5 bottom half, §2.5), chains (§4.7) and lists (Podium extension, docs/api/relations.md),
// over real HTTP, in both call styles and on both stores. Activities, speakers, sponsors and tags are inserted
// straight into the store: their own operations are covered by other suites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf, type Client } from '../helpers/operations.ts';

const T0 = Date.UTC(2031, 4, 10, 9, 0, 0) / 1000;
const HOUR = 3600;

/** Fields of an activity record (spec §2.4, domain/activity/record.ts). */
const ACTIVITY_FIELDS = [
  'activityID',
  'eventID',
  'name',
  'dateBegin',
  'dateEnd',
  'personID',
  'approved',
  'speakers',
  'tags',
];
const SPEAKER_FIELDS = ['activityID', 'speakerID', 'eventID', 'name', 'headline', 'description', 'category', 'image', 'email', 'socialA', 'socialB', 'socialC']; // prettier-ignore
const SPONSOR_FIELDS = ['activityID', 'sponsorID', 'eventID', 'companyName', 'name', 'telephone', 'email', 'website', 'bio', 'logo', 'category', 'tier', 'tierRank']; // prettier-ignore

describe.each(STORES)('activity relations on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let A: number; // eventA
    let B: number; // eventB
    let a1: number, a2: number, a3: number, aB: number; // activities (a1 < a2 < a3 by dateBegin)
    let s1: number, s2: number, sB: number; // speakers
    let sp1: number, sp2: number, spB: number; // sponsors
    let tag1: number, tag2: number, tagPerson: number, tagCompany: number, tagB: number;
    let outsiderID: number; // a person not in event A
    let memberBID: number; // an attendee of event B only
    let staffID: number;

    const activity = async (eventID: number, name: string, begin: number) =>
      (
        await p.db
          .insertInto('activity')
          .values({ eventID, name, dateBegin: begin, dateEnd: begin + HOUR })
          .returning('activityID')
          .executeTakeFirstOrThrow()
      ).activityID;
    const speaker = async (eventID: number, name: string, position: number) =>
      (
        await p.db
          .insertInto('speaker')
          .values({ eventID, name, position, email: `${name.toLowerCase()}@speakers.test`, headline: `${name} h` })
          .returning('speakerID')
          .executeTakeFirstOrThrow()
      ).speakerID;
    const sponsor = async (eventID: number, name: string, tierRank: number) =>
      (
        await p.db
          .insertInto('sponsor')
          .values({
            eventID,
            name,
            tierRank,
            companyName: `${name} Inc`,
            tier: tierRank === 1 ? 'Gold' : 'Silver',
            email: `sales@${name.toLowerCase()}.test`,
            telephone: '+351 210 000 000',
          })
          .returning('sponsorID')
          .executeTakeFirstOrThrow()
      ).sponsorID;
    const tag = async (companyID: string, eventID: number | null, name: string, tagKind = 'activity') =>
      (
        await p.db
          .insertInto('tag')
          .values({ companyID: Number(companyID), eventID, name, kind: tagKind, color: '#112233' })
          .returning('tagID')
          .executeTakeFirstOrThrow()
      ).tagID;
    const rows = (
      table: 'activityChain' | 'activityList' | 'listPerson' | 'activitySpeaker' | 'activitySponsor' | 'activityTag',
    ) => p.db.selectFrom(table).selectAll().execute() as Promise<Record<string, number>[]>;

    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
      A = Number(w.eventA.eventID);
      B = Number(w.eventB.eventID);
      a1 = await activity(A, 'Opening', T0);
      a2 = await activity(A, 'Workshop', T0 + HOUR);
      a3 = await activity(A, 'Closing', T0 + 2 * HOUR);
      aB = await activity(B, 'B Keynote', T0);
      s1 = await speaker(A, 'Ada', 2);
      s2 = await speaker(A, 'Bob', 1);
      sB = await speaker(B, 'Cy', 1);
      sp1 = await sponsor(A, 'Acme', 2);
      sp2 = await sponsor(A, 'Bolt', 1);
      spB = await sponsor(B, 'Corp', 1);
      tag1 = await tag(w.companyA.companyID, A, 'AI');
      tag2 = await tag(w.companyA.companyID, A, 'Cloud');
      tagPerson = await tag(w.companyA.companyID, A, 'VIP', 'attendee');
      tagCompany = await tag(w.companyA.companyID, null, 'Company wide');
      tagB = await tag(w.companyB.companyID, B, 'B tag');
      outsiderID = await p.person('outsider@podium.test', 'a password that is long');
      memberBID = await p.person('member-b@podium.test', 'a password that is long');
      await p.enrol(B, memberBID);
      staffID = (await p.db
        .selectFrom('person')
        .select('personID')
        .where('username', '=', 'staff@podium.test')
        .executeTakeFirstOrThrow())!.personID;
    });
    afterAll(() => p?.close());

    describe('chain.create, chain.find, chain.remove', () => {
      it('creates a chain with the default constraint 1 or a given one, stored as answered', async () => {
        const [one] = await c.ok('chain.create', {
          token: w.adminA,
          query: { eventID: A },
          body: { name: '  Morning  ' },
        });
        expect(one).toEqual({
          chainID: expect.stringMatching(/^\d+$/),
          eventID: String(A),
          name: 'Morning',
          constraint: '1',
          activityCount: '0',
          activities: [],
        });
        const [three] = await c.ok('chain.create', {
          token: w.eventAdminSystem,
          query: { eventID: A },
          body: { name: 'Tracks', constraint: 3 },
        });
        expect(three).toMatchObject({ name: 'Tracks', constraint: '3' });
        const stored = await p.db
          .selectFrom('chain')
          .selectAll()
          .where('chainID', 'in', [Number(one.chainID), Number(three.chainID)])
          .orderBy('chainID')
          .execute();
        expect(stored.map((r) => [r.eventID, r.name, r.maxPerPerson])).toEqual([
          [A, 'Morning', 1],
          [A, 'Tracks', 3],
        ]);
      });

      it.each([
        [{ name: 'X', constraint: '0' }, /^400 constraint must be an integer from 1 to 1000/],
        [{ name: 'X', constraint: '1001' }, /^400 constraint/],
        [{ name: 'X', constraint: '-1' }, /^400 constraint/],
        [{ name: 'X', constraint: 'two' }, /^400 constraint/],
        [{ name: '   ' }, /^400 name cannot be blank/],
        [{ name: 'x'.repeat(201) }, /^400 name must be at most 200/],
        [{ constraint: '2' }, /^400 name cannot be empty/],
      ])('refuses the body %j with 400 naming the parameter', async (body, message) => {
        await c.fail('chain.create', { token: w.adminA, query: { eventID: A }, body }, 400, message);
      });

      it('finds the chains of an event with their activities, for any member, paginated', async () => {
        const [x] = await c.ok('chain.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Find me' } });
        await c.ok('activity.chain.bind', { token: w.adminA, query: { chainID: x.chainID, activityID: a2 } });
        await c.ok('activity.chain.bind', { token: w.adminA, query: { chainID: x.chainID, activityID: a1 } });
        await c.ok('chain.create', { token: w.adminB, query: { eventID: B }, body: { name: 'Find me in B' } });
        for (const token of [w.attendee, w.staff, w.adminA]) {
          const found = await c.ok('chain.find', { token, query: { eventID: A, limit: 100 } });
          expect(found.every((r) => r.eventID === String(A))).toBe(true);
          const names = found.map((r) => r.name);
          expect(names).toEqual([...names].sort());
          expect(found.find((r) => r.chainID === x.chainID)).toEqual({
            chainID: x.chainID,
            eventID: String(A),
            name: 'Find me',
            constraint: '1',
            activityCount: '2',
            activities: [
              { activityID: String(a1), name: 'Opening' },
              { activityID: String(a2), name: 'Workshop' },
            ],
          });
        }
        const all = await c.ok('chain.find', { token: w.adminA, query: { eventID: A, limit: 100 } });
        const page = await c.call('chain.find', {
          token: w.adminA,
          query: { eventID: A, limit: 1, offset: 1, paginated: 1 },
        });
        expect(page.total).toBe(String(all.length));
        expect(idsOf(page.data as Record<string, string>[], 'chainID')).toEqual([all[1].chainID]);
      });

      it('removes a chain with its links; its activities stay', async () => {
        const [x] = await c.ok('chain.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Doomed' } });
        await c.ok('activity.chain.bind', { token: w.adminA, query: { chainID: x.chainID, activityID: a3 } });
        const [removed] = await c.ok('chain.remove', { token: w.adminA, query: { chainID: x.chainID } });
        expect(removed).toMatchObject({ chainID: x.chainID, name: 'Doomed', activityCount: '1' });
        expect((await rows('activityChain')).filter((r) => r.chainID === Number(x.chainID))).toEqual([]);
        expect(
          await p.db.selectFrom('activity').select('activityID').where('activityID', '=', a3).execute(),
        ).toHaveLength(1);
        const found = await c.ok('chain.find', { token: w.adminA, query: { eventID: A, limit: 100 } });
        expect(idsOf(found, 'chainID')).not.toContain(x.chainID);
        await c.fail('chain.remove', { token: w.adminA, query: { chainID: x.chainID } }, 404, /chain not found/);
      });

      it('keeps nothing in sandbox mode', async () => {
        const [ghost] = await c.ok('chain.create', {
          token: w.adminA,
          query: { eventID: A, sandbox: 1 },
          body: { name: 'Ghost' },
        });
        await c.fail('chain.remove', { token: w.adminA, query: { chainID: ghost.chainID } }, 404);
      });

      it('answers 401 without token, 403 to members below admin, 404 to strangers and unknown ids', async () => {
        const [x] = await c.ok('chain.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Guarded' } });
        const create = (token: string | undefined, eventID: number | string = A) =>
          ({ token, query: { eventID }, body: { name: 'N' } }) as const;
        await c.fail('chain.create', create(undefined), 401);
        await c.fail('chain.create', create(w.attendee), 403);
        await c.fail('chain.create', create(w.staff), 403);
        await c.fail('chain.create', create(w.eventAdminEventScope), 403); // event scope: admin downgraded
        await c.fail('chain.create', create(w.adminB), 404);
        await c.fail('chain.create', create(w.adminA, 999999), 404);
        await c.fail('chain.remove', { token: w.attendee, query: { chainID: x.chainID } }, 403);
        await c.fail('chain.remove', { token: w.adminB, query: { chainID: x.chainID } }, 404);
        await c.fail('chain.remove', { query: { chainID: x.chainID } }, 401);
        await c.fail('chain.remove', { token: w.adminA, query: { chainID: 'x' } }, 400, /^400 chainID/);
        await c.fail('chain.find', { query: { eventID: A } }, 401);
        await c.fail('chain.find', { token: w.externalA, query: { eventID: A } }, 403);
        await c.fail('chain.find', { token: w.adminB, query: { eventID: A } }, 404);
        await c.fail('chain.find', { token: w.adminA, query: {} }, 400, /^400 eventID cannot be empty/);
        await c.fail('chain.find', { token: w.adminA, query: { eventID: A, limit: 101 } }, 400, /^400 limit/);
        // Still there after all the refusals.
        expect(
          idsOf(await c.ok('chain.find', { token: w.adminA, query: { eventID: A, limit: 100 } }), 'chainID'),
        ).toContain(x.chainID);
      });
    });

    describe('activity.chain.bind, .dismiss, .find, .findChainedActivities', () => {
      let chain: string;
      let other: string;
      // Activities of this block only (the outer ones are chained by the chain.find tests).
      let a1: number, a2: number, a3: number;
      beforeAll(async () => {
        a1 = await activity(A, 'Opening', T0);
        a2 = await activity(A, 'Workshop', T0 + HOUR);
        a3 = await activity(A, 'Closing', T0 + 2 * HOUR);
        chain = (await c.ok('chain.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Day 1' } }))[0]
          .chainID;
        other = (await c.ok('chain.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Day 1 bis' } }))[0]
          .chainID;
      });
      const pairs = async (chainID: string) =>
        (await rows('activityChain'))
          .filter((r) => r.chainID === Number(chainID))
          .map((r) => r.activityID)
          .sort((x, y) => x - y);

      it('binds idempotently: the same pair twice (also concurrently) is one link', async () => {
        const [pair] = await c.ok('activity.chain.bind', {
          token: w.adminA,
          query: { chainID: chain, activityID: a1 },
        });
        expect(pair).toEqual({ chainID: chain, activityID: String(a1) });
        expect(
          await c.ok('activity.chain.bind', { token: w.adminA, query: { chainID: chain, activityID: a1 } }),
        ).toEqual([pair]);
        const both = await Promise.all(
          [0, 1].map(() =>
            c.call('activity.chain.bind', { token: w.adminA, query: { chainID: chain, activityID: a2 } }),
          ),
        );
        expect(both.map((r) => r.status)).toEqual([200, 200]);
        expect(await pairs(chain)).toEqual([a1, a2]);
      });

      it('finds the chains of an activity for any member', async () => {
        await c.ok('activity.chain.bind', { token: w.adminA, query: { chainID: other, activityID: a1 } });
        await c.ok('activity.chain.bind', { token: w.adminA, query: { chainID: other, activityID: a3 } });
        for (const token of [w.attendee, w.staff, w.adminA]) {
          const found = await c.ok('activity.chain.find', { token, query: { activityID: a1 } });
          expect(idsOf(found, 'chainID')).toEqual([chain, other]); // by name
          expect(found[0]).toMatchObject({ name: 'Day 1', constraint: '1', eventID: String(A) });
        }
        const onlyOther = await c.ok('activity.chain.find', { token: w.attendee, query: { activityID: a3 } });
        expect(idsOf(onlyOther, 'chainID')).toEqual([other]);
        const page = await c.call('activity.chain.find', {
          token: w.attendee,
          query: { activityID: a1, limit: 1, paginated: 1 },
        });
        expect([page.count, page.total]).toEqual([1, '2']);
        expect(await c.ok('activity.chain.find', { token: w.attendee, query: { activityID: a1, offset: 2 } })).toEqual(
          [],
        );
      });

      it('finds the other chained activities once each, as records with the caller’s state', async () => {
        // a1 shares `chain` with a2 and `other` with a3.
        await p.db
          .insertInto('activityPerson')
          .values({ activityID: a2, eventID: A, personID: w.attendeeID, approved: 1 })
          .execute();
        await p.db.insertInto('activitySpeaker').values({ activityID: a3, speakerID: s1 }).execute();
        const found = await c.ok('activity.chain.findChainedActivities', {
          token: w.attendee,
          query: { activityID: a1 },
        });
        expect(idsOf(found, 'activityID')).toEqual([String(a2), String(a3)]);
        for (const row of found) expect(Object.keys(row)).toEqual(expect.arrayContaining(ACTIVITY_FIELDS));
        expect(found[0]).toMatchObject({
          name: 'Workshop',
          eventID: String(A),
          personID: String(w.attendeeID),
          approved: '1',
        });
        expect(found[1]).toMatchObject({ name: 'Closing', approved: '-1', tags: [] });
        expect(found[1].speakers).toEqual([expect.objectContaining({ speakerID: String(s1), name: 'Ada' })]);
        // From a3 only a1 is chained (through `other`).
        const fromA3 = await c.ok('activity.chain.findChainedActivities', {
          token: w.staff,
          query: { activityID: a3 },
        });
        expect(idsOf(fromA3, 'activityID')).toEqual([String(a1)]);
        const page = await c.call('activity.chain.findChainedActivities', {
          token: w.adminA,
          query: { activityID: a1, limit: 1, offset: 1, paginated: 1 },
        });
        expect([idsOf(page.data as Record<string, string>[], 'activityID'), page.total]).toEqual([[String(a3)], '2']);
        await p.db.deleteFrom('activityPerson').where('personID', '=', w.attendeeID).execute();
        await p.db.deleteFrom('activitySpeaker').execute();
      });

      it('refuses an activity of another event with 404 activity (same-event rule)', async () => {
        await c.fail(
          'activity.chain.bind',
          { token: w.adminA, query: { chainID: chain, activityID: aB } },
          404,
          /activity not found/,
        );
        await c.fail(
          'activity.chain.bind',
          { token: w.operator, query: { chainID: chain, activityID: aB } },
          404,
          /activity not found/,
        );
        await c.fail(
          'activity.chain.dismiss',
          { token: w.adminA, query: { chainID: chain, activityID: aB } },
          404,
          /activity not found/,
        );
        await c.fail(
          'activity.chain.bind',
          { token: w.adminA, query: { chainID: chain, activityID: 999999 } },
          404,
          /activity not found/,
        );
        await c.fail(
          'activity.chain.bind',
          { token: w.adminA, query: { chainID: 999999, activityID: a1 } },
          404,
          /chain not found/,
        );
        expect(await pairs(chain)).not.toContain(aB);
      });

      it('dismisses idempotently', async () => {
        const [pair] = await c.ok('activity.chain.dismiss', {
          token: w.adminA,
          query: { chainID: chain, activityID: a2 },
        });
        expect(pair).toEqual({ chainID: chain, activityID: String(a2) });
        expect(await pairs(chain)).toEqual([a1]);
        expect(
          await c.ok('activity.chain.dismiss', { token: w.adminA, query: { chainID: chain, activityID: a2 } }),
        ).toEqual([pair]);
        expect(await pairs(chain)).toEqual([a1]);
        const found = await c.ok('activity.chain.find', { token: w.adminA, query: { activityID: a2 } });
        expect(idsOf(found, 'chainID')).not.toContain(chain);
      });

      it('answers 401, 403 to members below admin, 404 to strangers, 400 naming the parameter', async () => {
        const q = { chainID: chain, activityID: a3 };
        for (const op of ['activity.chain.bind', 'activity.chain.dismiss']) {
          await c.fail(op, { query: q }, 401);
          await c.fail(op, { token: w.attendee, query: q }, 403);
          await c.fail(op, { token: w.staff, query: q }, 403);
          await c.fail(op, { token: w.adminB, query: q }, 404);
          await c.fail(op, { token: w.adminA, query: { chainID: chain } }, 400, /^400 activityID cannot be empty/);
          await c.fail(op, { token: w.adminA, query: { activityID: a3 } }, 400, /^400 chainID cannot be empty/);
        }
        expect(await pairs(chain)).not.toContain(a3);
        for (const op of ['activity.chain.find', 'activity.chain.findChainedActivities']) {
          await c.fail(op, { query: { activityID: a1 } }, 401);
          await c.fail(op, { token: w.adminB, query: { activityID: a1 } }, 404);
          await c.fail(op, { token: w.externalA, query: { activityID: a1 } }, 403);
          await c.fail(op, { token: w.adminA, query: { activityID: 999999 } }, 404, /activity not found/);
          await c.fail(op, { token: w.adminA, query: { activityID: '0' } }, 400, /^400 activityID/);
        }
      });
    });

    describe('list.create, .edit, .get, .find, .remove', () => {
      it('creates, edits, reads and finds lists with member counts', async () => {
        const [list] = await c.ok('list.create', { token: w.adminA, query: { eventID: A }, body: { name: ' VIPs ' } });
        expect(list).toEqual({
          listID: expect.stringMatching(/^\d+$/),
          eventID: String(A),
          name: 'VIPs',
          dateCreated: expect.stringMatching(/^\d+$/),
          memberCount: '0',
        });
        const [edited] = await c.ok('list.edit', {
          token: w.adminA,
          query: { listID: list.listID, key: 'name' },
          body: { value: 'Guests' },
        });
        expect(edited).toEqual({ ...list, name: 'Guests' });
        await c.ok('list.person.bind', { token: w.adminA, query: { listID: list.listID, personID: w.attendeeID } });
        expect(await c.ok('list.get', { token: w.eventAdminSystem, query: { listID: list.listID } })).toEqual([
          { ...list, name: 'Guests', memberCount: '1' },
        ]);
        const [second] = await c.ok('list.create', {
          token: w.adminA,
          query: { eventID: A },
          body: { name: 'Alumni' },
        });
        await c.ok('list.create', { token: w.adminB, query: { eventID: B }, body: { name: 'B list' } });
        const found = await c.ok('list.find', { token: w.adminA, query: { eventID: A, limit: 100 } });
        expect(found.every((r) => r.eventID === String(A))).toBe(true);
        expect(found.map((r) => r.name)).toEqual([...found.map((r) => r.name)].sort());
        expect(found).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ listID: list.listID, memberCount: '1' }),
            expect.objectContaining({ listID: second.listID, memberCount: '0' }),
          ]),
        );
        const page = await c.call('list.find', { token: w.adminA, query: { eventID: A, limit: 1, paginated: 1 } });
        expect([page.count, page.total]).toEqual([1, String(found.length)]);
      });

      it.each([
        [{ key: 'eventID' }, { value: '2' }, /^400 key eventID cannot be edited here/],
        [{ key: 'name' }, { value: '  ' }, /^400 value cannot be blank \(key name\)/],
        [{ key: 'name' }, {}, /^400 value cannot be empty/],
        [{}, { value: 'X' }, /^400 key cannot be empty/],
      ])('refuses list.edit %j %j with 400', async (query, body, message) => {
        const [list] = await c.ok('list.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Edit me' } });
        await c.fail('list.edit', { token: w.adminA, query: { listID: list.listID, ...query }, body }, 400, message);
        expect((await c.ok('list.get', { token: w.adminA, query: { listID: list.listID } }))[0].name).toBe('Edit me');
      });

      it('removes a list with its members and activity links (cascade)', async () => {
        const [list] = await c.ok('list.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Gone' } });
        await c.ok('list.person.bind', { token: w.adminA, query: { listID: list.listID, personID: w.attendeeID } });
        await c.ok('activity.list.bind', { token: w.adminA, query: { listID: list.listID, activityID: a3 } });
        const [removed] = await c.ok('list.remove', { token: w.adminA, query: { listID: list.listID } });
        expect(removed).toMatchObject({ listID: list.listID, name: 'Gone', memberCount: '1' });
        const id = Number(list.listID);
        expect((await rows('listPerson')).filter((r) => r.listID === id)).toEqual([]);
        expect((await rows('activityList')).filter((r) => r.listID === id)).toEqual([]);
        await c.fail('list.get', { token: w.adminA, query: { listID: list.listID } }, 404, /list not found/);
        await c.fail('list.remove', { token: w.adminA, query: { listID: list.listID } }, 404, /list not found/);
        expect(await c.ok('activity.list.find', { token: w.adminA, query: { activityID: a3 } })).toEqual([]);
      });

      it('is for event admins: 401, 403 for staff and attendees, 404 for strangers', async () => {
        const [list] = await c.ok('list.create', {
          token: w.operator,
          query: { eventID: A },
          body: { name: 'Private' },
        });
        const calls = [
          ['list.create', { query: { eventID: A }, body: { name: 'N' } }],
          ['list.edit', { query: { listID: list.listID, key: 'name' }, body: { value: 'N' } }],
          ['list.remove', { query: { listID: list.listID } }],
          ['list.get', { query: { listID: list.listID } }],
          ['list.find', { query: { eventID: A } }],
        ] as const;
        for (const [op, o] of calls) {
          await c.fail(op, o, 401);
          await c.fail(op, { ...o, token: w.attendee }, 403);
          await c.fail(op, { ...o, token: w.staff }, 403);
          await c.fail(op, { ...o, token: w.eventAdminEventScope }, 403);
          await c.fail(op, { ...o, token: w.adminB }, 404);
        }
        await c.fail('list.get', { token: w.adminA, query: { listID: 999999 } }, 404, /list not found/);
        await c.fail(
          'list.create',
          { token: w.adminA, query: { eventID: A }, body: {} },
          400,
          /^400 name cannot be empty/,
        );
        expect((await c.ok('list.get', { token: w.adminA, query: { listID: list.listID } }))[0].name).toBe('Private');
      });
    });

    describe('list.person.bind, .dismiss, .find', () => {
      let list: string;
      beforeAll(async () => {
        list = (await c.ok('list.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Members' } }))[0]
          .listID;
      });
      const members = async () =>
        (await rows('listPerson'))
          .filter((r) => r.listID === Number(list))
          .map((r) => r.personID)
          .sort((x, y) => x - y);

      it('adds attendees idempotently and lists them by name', async () => {
        const [row] = await c.ok('list.person.bind', {
          token: w.adminA,
          query: { listID: list, personID: w.attendeeID },
        });
        expect(row).toEqual({
          listID: list,
          personID: String(w.attendeeID),
          name: 'attendee',
          email: 'attendee@podium.test',
        });
        expect(
          await c.ok('list.person.bind', { token: w.adminA, query: { listID: list, personID: w.attendeeID } }),
        ).toEqual([row]);
        const both = await Promise.all(
          [0, 1].map(() => c.call('list.person.bind', { token: w.adminA, query: { listID: list, personID: staffID } })),
        );
        expect(both.map((r) => r.status)).toEqual([200, 200]);
        expect(await members()).toEqual([w.attendeeID, staffID].sort((x, y) => x - y));
        const found = await c.ok('list.person.find', { token: w.adminA, query: { listID: list } });
        expect(found.map((r) => [r.name, r.personID])).toEqual([
          ['attendee', String(w.attendeeID)],
          ['staff', String(staffID)],
        ]);
        expect(Object.keys(found[0]).sort()).toEqual(['email', 'listID', 'name', 'personID']);
        const page = await c.call('list.person.find', {
          token: w.adminA,
          query: { listID: list, limit: 1, offset: 1, paginated: 1 },
        });
        expect([idsOf(page.data as Record<string, string>[], 'personID'), page.total]).toEqual([
          [String(staffID)],
          '2',
        ]);
      });

      it('refuses anyone who is not an attendee of the event with 404 person', async () => {
        for (const personID of [outsiderID, memberBID, 999999])
          await c.fail(
            'list.person.bind',
            { token: w.adminA, query: { listID: list, personID } },
            404,
            /person not found/,
          );
        await c.fail(
          'list.person.dismiss',
          { token: w.adminA, query: { listID: list, personID: outsiderID } },
          404,
          /person not found/,
        );
        expect(await members()).not.toContain(outsiderID);
      });

      it('dismisses idempotently', async () => {
        await c.ok('list.person.bind', { token: w.adminA, query: { listID: list, personID: staffID } });
        const [row] = await c.ok('list.person.dismiss', {
          token: w.adminA,
          query: { listID: list, personID: staffID },
        });
        expect(row).toMatchObject({ listID: list, personID: String(staffID), name: 'staff' });
        expect(await members()).not.toContain(staffID);
        expect(
          await c.ok('list.person.dismiss', { token: w.adminA, query: { listID: list, personID: staffID } }),
        ).toEqual([row]);
        const found = await c.ok('list.person.find', { token: w.adminA, query: { listID: list } });
        expect(idsOf(found, 'personID')).not.toContain(String(staffID));
      });

      it('is for event admins: 401, 403 for staff and attendees, 404 for strangers and unknown lists', async () => {
        const before = await members();
        for (const op of ['list.person.bind', 'list.person.dismiss', 'list.person.find']) {
          const q: Record<string, string | number> =
            op === 'list.person.find' ? { listID: list } : { listID: list, personID: w.attendeeID };
          await c.fail(op, { query: q }, 401);
          await c.fail(op, { token: w.attendee, query: q }, 403);
          await c.fail(op, { token: w.staff, query: q }, 403);
          await c.fail(op, { token: w.adminB, query: q }, 404);
          await c.fail(op, { token: w.adminA, query: { ...q, listID: 999999 } }, 404, /list not found/);
        }
        await c.fail(
          'list.person.bind',
          { token: w.adminA, query: { listID: list } },
          400,
          /^400 personID cannot be empty/,
        );
        expect(await members()).toEqual(before);
      });
    });

    describe('activity.list.bind, .dismiss, .find', () => {
      let list: string;
      let other: string;
      beforeAll(async () => {
        list = (
          await c.ok('list.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Speakers only' } })
        )[0].listID;
        other = (await c.ok('list.create', { token: w.adminA, query: { eventID: A }, body: { name: 'Press' } }))[0]
          .listID;
      });

      it('limits an activity to lists idempotently; members read them; enrollment sees who is admitted', async () => {
        const [pair] = await c.ok('activity.list.bind', { token: w.adminA, query: { listID: list, activityID: a2 } });
        expect(pair).toEqual({ activityID: String(a2), listID: list });
        expect(await c.ok('activity.list.bind', { token: w.adminA, query: { listID: list, activityID: a2 } })).toEqual([
          pair,
        ]);
        await c.ok('activity.list.bind', { token: w.adminA, query: { listID: other, activityID: a2 } });
        expect((await rows('activityList')).filter((r) => r.activityID === a2)).toHaveLength(2);
        for (const token of [w.attendee, w.staff, w.adminA]) {
          const found = await c.ok('activity.list.find', { token, query: { activityID: a2 } });
          expect(found).toEqual([
            { activityID: String(a2), listID: other, eventID: String(A), name: 'Press' },
            { activityID: String(a2), listID: list, eventID: String(A), name: 'Speakers only' },
          ]);
        }
        const page = await c.call('activity.list.find', {
          token: w.attendee,
          query: { activityID: a2, limit: 1, paginated: 1 },
        });
        expect([page.count, page.total]).toEqual([1, '2']);
      });

      it('refuses an activity of another event with 404 activity', async () => {
        await c.fail(
          'activity.list.bind',
          { token: w.adminA, query: { listID: list, activityID: aB } },
          404,
          /activity not found/,
        );
        await c.fail(
          'activity.list.dismiss',
          { token: w.adminA, query: { listID: list, activityID: aB } },
          404,
          /activity not found/,
        );
        await c.fail(
          'activity.list.bind',
          { token: w.adminA, query: { listID: 999999, activityID: a2 } },
          404,
          /list not found/,
        );
        expect((await rows('activityList')).filter((r) => r.activityID === aB)).toEqual([]);
      });

      it('dismisses idempotently', async () => {
        await c.ok('activity.list.bind', { token: w.adminA, query: { listID: list, activityID: a1 } });
        const [pair] = await c.ok('activity.list.dismiss', {
          token: w.adminA,
          query: { listID: list, activityID: a1 },
        });
        expect(pair).toEqual({ activityID: String(a1), listID: list });
        expect(
          await c.ok('activity.list.dismiss', { token: w.adminA, query: { listID: list, activityID: a1 } }),
        ).toEqual([pair]);
        expect(await c.ok('activity.list.find', { token: w.adminA, query: { activityID: a1 } })).toEqual([]);
      });

      it('answers 401, 403 to members below admin, 404 to strangers', async () => {
        const q = { listID: list, activityID: a3 };
        for (const op of ['activity.list.bind', 'activity.list.dismiss']) {
          await c.fail(op, { query: q }, 401);
          await c.fail(op, { token: w.attendee, query: q }, 403);
          await c.fail(op, { token: w.staff, query: q }, 403);
          await c.fail(op, { token: w.adminB, query: q }, 404);
          await c.fail(op, { token: w.adminA, query: { listID: list } }, 400, /^400 activityID cannot be empty/);
        }
        expect((await rows('activityList')).filter((r) => r.activityID === a3)).toEqual([]);
        await c.fail('activity.list.find', { query: { activityID: a3 } }, 401);
        await c.fail('activity.list.find', { token: w.adminB, query: { activityID: a3 } }, 404);
        await c.fail('activity.list.find', { token: w.externalA, query: { activityID: a3 } }, 403);
        await c.fail(
          'activity.list.find',
          { token: w.adminA, query: { activityID: 999999 } },
          404,
          /activity not found/,
        );
      });
    });

    describe('activity.speaker.bind, .dismiss, .find', () => {
      it('binds idempotently and finds both ways', async () => {
        const [pair] = await c.ok('activity.speaker.bind', {
          token: w.adminA,
          query: { activityID: a1, speakerID: s1 },
        });
        expect(pair).toEqual({ activityID: String(a1), speakerID: String(s1) });
        expect(
          await c.ok('activity.speaker.bind', { token: w.adminA, query: { activityID: a1, speakerID: s1 } }),
        ).toEqual([pair]);
        await c.ok('activity.speaker.bind', { token: w.eventAdminSystem, query: { activityID: a1, speakerID: s2 } });
        await c.ok('activity.speaker.bind', { token: w.adminA, query: { activityID: a3, speakerID: s1 } });
        expect((await rows('activitySpeaker')).filter((r) => r.speakerID === s1)).toHaveLength(2);

        // The activity's speakers, by position: Bob (1) then Ada (2); e-mails only for admins.
        const asAdmin = await c.ok('activity.speaker.find', { token: w.adminA, query: { activityID: a1 } });
        expect(idsOf(asAdmin, 'speakerID')).toEqual([String(s2), String(s1)]);
        expect(Object.keys(asAdmin[0]).sort()).toEqual([...SPEAKER_FIELDS].sort());
        expect(asAdmin[1]).toMatchObject({
          name: 'Ada',
          headline: 'Ada h',
          email: 'ada@speakers.test',
          eventID: String(A),
        });
        const asAttendee = await c.ok('activity.speaker.find', { token: w.attendee, query: { activityID: a1 } });
        expect(asAttendee.map((r) => [r.speakerID, r.email])).toEqual([
          [String(s2), ''],
          [String(s1), ''],
        ]);
        const page = await c.call('activity.speaker.find', {
          token: w.staff,
          query: { activityID: a1, limit: 1, paginated: 1 },
        });
        expect([idsOf(page.data as Record<string, string>[], 'speakerID'), page.total]).toEqual([[String(s2)], '2']);

        // The speaker's activities, as activity records by dateBegin.
        const theirs = await c.ok('activity.speaker.find', { token: w.attendee, query: { speakerID: s1 } });
        expect(idsOf(theirs, 'activityID')).toEqual([String(a1), String(a3)]);
        for (const row of theirs) expect(Object.keys(row)).toEqual(expect.arrayContaining(ACTIVITY_FIELDS));
        expect(idsOf(theirs[0].speakers as unknown as Record<string, string>[], 'speakerID')).toEqual([
          String(s2),
          String(s1),
        ]);
        const theirPage = await c.call('activity.speaker.find', {
          token: w.attendee,
          query: { speakerID: s1, offset: 1, paginated: 1 },
        });
        expect([idsOf(theirPage.data as Record<string, string>[], 'activityID'), theirPage.total]).toEqual([
          [String(a3)],
          '2',
        ]);
        expect(await c.ok('activity.speaker.find', { token: w.attendee, query: { speakerID: s2 } })).toHaveLength(1);
      });

      it('refuses a speaker of another event with 404 speaker', async () => {
        await c.fail(
          'activity.speaker.bind',
          { token: w.adminA, query: { activityID: a1, speakerID: sB } },
          404,
          /speaker not found/,
        );
        await c.fail(
          'activity.speaker.bind',
          { token: w.operator, query: { activityID: a1, speakerID: sB } },
          404,
          /speaker not found/,
        );
        await c.fail(
          'activity.speaker.dismiss',
          { token: w.adminA, query: { activityID: a1, speakerID: sB } },
          404,
          /speaker not found/,
        );
        await c.fail(
          'activity.speaker.bind',
          { token: w.adminA, query: { activityID: a1, speakerID: 999999 } },
          404,
          /speaker not found/,
        );
        await c.fail(
          'activity.speaker.bind',
          { token: w.adminA, query: { activityID: 999999, speakerID: s1 } },
          404,
          /activity not found/,
        );
        expect((await rows('activitySpeaker')).filter((r) => r.speakerID === sB)).toEqual([]);
      });

      it('dismisses idempotently', async () => {
        await c.ok('activity.speaker.bind', { token: w.adminA, query: { activityID: a2, speakerID: s2 } });
        const [pair] = await c.ok('activity.speaker.dismiss', {
          token: w.adminA,
          query: { activityID: a2, speakerID: s2 },
        });
        expect(pair).toEqual({ activityID: String(a2), speakerID: String(s2) });
        expect(
          await c.ok('activity.speaker.dismiss', { token: w.adminA, query: { activityID: a2, speakerID: s2 } }),
        ).toEqual([pair]);
        expect(await c.ok('activity.speaker.find', { token: w.adminA, query: { activityID: a2 } })).toEqual([]);
        expect(
          idsOf(await c.ok('activity.speaker.find', { token: w.adminA, query: { speakerID: s2 } }), 'activityID'),
        ).toEqual([String(a1)]);
      });

      it('answers 400 without a form, 401, 403 to members below admin, 404 to strangers', async () => {
        await c.fail(
          'activity.speaker.find',
          { token: w.adminA, query: {} },
          400,
          /^400 one of these is required: activityID; speakerID/,
        );
        for (const o of [{ activityID: a1 }, { speakerID: s1 }] as Record<string, number>[]) {
          await c.fail('activity.speaker.find', { query: o }, 401);
          await c.fail('activity.speaker.find', { token: w.adminB, query: o }, 404);
          await c.fail('activity.speaker.find', { token: w.externalA, query: o }, 403);
        }
        await c.fail(
          'activity.speaker.find',
          { token: w.adminA, query: { speakerID: 999999 } },
          404,
          /speaker not found/,
        );
        expect(await c.ok('activity.speaker.find', { token: w.adminB, query: { speakerID: sB } })).toEqual([]);
        const q = { activityID: a2, speakerID: s1 };
        for (const op of ['activity.speaker.bind', 'activity.speaker.dismiss']) {
          await c.fail(op, { query: q }, 401);
          await c.fail(op, { token: w.attendee, query: q }, 403);
          await c.fail(op, { token: w.staff, query: q }, 403);
          await c.fail(op, { token: w.adminB, query: q }, 404);
          await c.fail(op, { token: w.adminA, query: { activityID: a2 } }, 400, /^400 speakerID cannot be empty/);
        }
        expect((await rows('activitySpeaker')).filter((r) => r.activityID === a2)).toEqual([]);
      });
    });

    describe('activity.sponsor.bind, .dismiss, .find', () => {
      it('binds idempotently and finds both ways', async () => {
        const [pair] = await c.ok('activity.sponsor.bind', {
          token: w.adminA,
          query: { activityID: a2, sponsorID: sp1 },
        });
        expect(pair).toEqual({ activityID: String(a2), sponsorID: String(sp1) });
        expect(
          await c.ok('activity.sponsor.bind', { token: w.adminA, query: { activityID: a2, sponsorID: sp1 } }),
        ).toEqual([pair]);
        await c.ok('activity.sponsor.bind', { token: w.adminA, query: { activityID: a2, sponsorID: sp2 } });
        await c.ok('activity.sponsor.bind', { token: w.adminA, query: { activityID: a1, sponsorID: sp1 } });
        expect((await rows('activitySponsor')).filter((r) => r.sponsorID === sp1)).toHaveLength(2);

        // The activity's sponsors, by tier rank: Bolt (1) then Acme (2).
        const found = await c.ok('activity.sponsor.find', { token: w.attendee, query: { activityID: a2 } });
        expect(idsOf(found, 'sponsorID')).toEqual([String(sp2), String(sp1)]);
        expect(Object.keys(found[0]).sort()).toEqual([...SPONSOR_FIELDS].sort());
        expect(found[1]).toMatchObject({
          name: 'Acme',
          companyName: 'Acme Inc',
          tier: 'Silver',
          tierRank: '2',
          eventID: String(A),
        });
        // A sponsor's contacts are for the event's admins, as in sponsor.find.
        expect(found[1]).toMatchObject({ email: '', telephone: '' });
        const [, asAdmin] = await c.ok('activity.sponsor.find', { token: w.adminA, query: { activityID: a2 } });
        expect(asAdmin).toMatchObject({ email: 'sales@acme.test', telephone: '+351 210 000 000' });
        const page = await c.call('activity.sponsor.find', {
          token: w.staff,
          query: { activityID: a2, offset: 1, paginated: 1 },
        });
        expect([idsOf(page.data as Record<string, string>[], 'sponsorID'), page.total]).toEqual([[String(sp1)], '2']);

        // The sponsor's activities in the event, as activity records by dateBegin.
        const theirs = await c.ok('activity.sponsor.find', {
          token: w.attendee,
          query: { eventID: A, sponsorID: sp1 },
        });
        expect(idsOf(theirs, 'activityID')).toEqual([String(a1), String(a2)]);
        for (const row of theirs) expect(Object.keys(row)).toEqual(expect.arrayContaining(ACTIVITY_FIELDS));
        expect(theirs[0]).toMatchObject({ personID: String(w.attendeeID), approved: '-1' });
        const theirPage = await c.call('activity.sponsor.find', {
          token: w.attendee,
          query: { eventID: A, sponsorID: sp1, limit: 1, paginated: 1 },
        });
        expect([idsOf(theirPage.data as Record<string, string>[], 'activityID'), theirPage.total]).toEqual([
          [String(a1)],
          '2',
        ]);
      });

      it('refuses a sponsor of another event with 404 sponsor', async () => {
        await c.fail(
          'activity.sponsor.bind',
          { token: w.adminA, query: { activityID: a1, sponsorID: spB } },
          404,
          /sponsor not found/,
        );
        await c.fail(
          'activity.sponsor.dismiss',
          { token: w.adminA, query: { activityID: a1, sponsorID: spB } },
          404,
          /sponsor not found/,
        );
        await c.fail(
          'activity.sponsor.find',
          { token: w.adminA, query: { eventID: A, sponsorID: spB } },
          404,
          /sponsor not found/,
        );
        await c.fail(
          'activity.sponsor.find',
          { token: w.adminA, query: { eventID: A, sponsorID: 999999 } },
          404,
          /sponsor not found/,
        );
        await c.fail('activity.sponsor.bind', { token: w.adminA, query: { activityID: aB, sponsorID: sp1 } }, 404);
        expect((await rows('activitySponsor')).filter((r) => r.sponsorID === spB || r.activityID === aB)).toEqual([]);
      });

      it('dismisses idempotently', async () => {
        const [pair] = await c.ok('activity.sponsor.dismiss', {
          token: w.adminA,
          query: { activityID: a1, sponsorID: sp1 },
        });
        expect(pair).toEqual({ activityID: String(a1), sponsorID: String(sp1) });
        expect(
          await c.ok('activity.sponsor.dismiss', { token: w.adminA, query: { activityID: a1, sponsorID: sp1 } }),
        ).toEqual([pair]);
        expect(await c.ok('activity.sponsor.find', { token: w.adminA, query: { activityID: a1 } })).toEqual([]);
        const theirs = await c.ok('activity.sponsor.find', { token: w.adminA, query: { eventID: A, sponsorID: sp1 } });
        expect(idsOf(theirs, 'activityID')).toEqual([String(a2)]);
      });

      it('answers 400 without a form, 401, 403 to members below admin, 404 to strangers', async () => {
        for (const query of [{}, { eventID: A }, { sponsorID: sp1 }] as Record<string, number>[])
          await c.fail(
            'activity.sponsor.find',
            { token: w.adminA, query },
            400,
            /^400 one of these is required: activityID; eventID \+ sponsorID/,
          );
        for (const o of [{ activityID: a2 }, { eventID: A, sponsorID: sp1 }] as Record<string, number>[]) {
          await c.fail('activity.sponsor.find', { query: o }, 401);
          await c.fail('activity.sponsor.find', { token: w.adminB, query: o }, 404);
          await c.fail('activity.sponsor.find', { token: w.externalA, query: o }, 403);
        }
        const q = { activityID: a3, sponsorID: sp1 };
        for (const op of ['activity.sponsor.bind', 'activity.sponsor.dismiss']) {
          await c.fail(op, { query: q }, 401);
          await c.fail(op, { token: w.attendee, query: q }, 403);
          await c.fail(op, { token: w.staff, query: q }, 403);
          await c.fail(op, { token: w.adminB, query: q }, 404);
          await c.fail(op, { token: w.adminA, query: { activityID: a3 } }, 400, /^400 sponsorID cannot be empty/);
        }
        expect((await rows('activitySponsor')).filter((r) => r.activityID === a3)).toEqual([]);
      });
    });

    describe('activity.tag.bind, .dismiss, .find', () => {
      const ACCESS_CODE = 2468;
      let privateActivity: number;
      let hiddenActivity: number;
      let privateTag: number;
      let privateEvent: string;
      beforeAll(async () => {
        const mk = async (name: string, nickname: string) =>
          (
            await p.ok('company.event.bind', {
              token: w.adminA,
              query: { companyID: w.companyA.companyID },
              body: { name, nickname },
            })
          )[0].eventID;
        privateEvent = await mk('Private', 'private-one');
        for (const [key, value] of [
          ['visible', 1],
          ['accessCode', ACCESS_CODE],
          ['public', 0],
        ] as const)
          await p.ok('event.edit', { token: w.adminA, query: { eventID: privateEvent, key }, body: { value } });
        const hiddenEvent = await mk('Hidden', 'hidden-one'); // created hidden (visible=0)
        privateActivity = await activity(Number(privateEvent), 'Private talk', T0);
        hiddenActivity = await activity(Number(hiddenEvent), 'Hidden talk', T0);
        privateTag = await tag(w.companyA.companyID, Number(privateEvent), 'Secret');
        const hiddenTag = await tag(w.companyA.companyID, Number(hiddenEvent), 'Hush');
        await p.db.insertInto('activityTag').values({ activityID: privateActivity, tagID: privateTag }).execute();
        await p.db.insertInto('activityTag').values({ activityID: hiddenActivity, tagID: hiddenTag }).execute();
      });
      const tagsOf = async (activityID: number) =>
        (await rows('activityTag'))
          .filter((r) => r.activityID === activityID)
          .map((r) => r.tagID)
          .sort((x, y) => x - y);

      it('tags idempotently with activity tags of the event; the public and members read them', async () => {
        const [pair] = await c.ok('activity.tag.bind', { token: w.adminA, query: { activityID: a1, tagID: tag2 } });
        expect(pair).toEqual({ activityID: String(a1), tagID: String(tag2) });
        expect(await c.ok('activity.tag.bind', { token: w.adminA, query: { activityID: a1, tagID: tag2 } })).toEqual([
          pair,
        ]);
        await c.ok('activity.tag.bind', { token: w.eventAdminSystem, query: { activityID: a1, tagID: tag1 } });
        expect(await tagsOf(a1)).toEqual([tag1, tag2].sort((x, y) => x - y));
        const expected = [
          { activityID: String(a1), tagID: String(tag1), eventID: String(A), name: 'AI', color: '#112233' },
          { activityID: String(a1), tagID: String(tag2), eventID: String(A), name: 'Cloud', color: '#112233' },
        ];
        for (const token of [undefined, w.attendee, w.staff, w.adminA, w.adminB])
          expect(await c.ok('activity.tag.find', { token, query: { activityID: a1 } })).toEqual(expected);
        const page = await c.call('activity.tag.find', {
          query: { activityID: a1, limit: 1, offset: 1, paginated: 1 },
        });
        expect([page.data, page.total]).toEqual([[expected[1]], '2']);
        // The activity record carries them too.
        const [record] = await c.ok('activity.speaker.find', { token: w.adminA, query: { speakerID: s1 } });
        expect(idsOf(record.tags as unknown as Record<string, string>[], 'tagID')).toEqual([
          String(tag1),
          String(tag2),
        ]);
      });

      it('refuses tags of another event or company-wide with 404, of another kind with 400', async () => {
        for (const tagID of [tagB, tagCompany, privateTag, 999999])
          await c.fail(
            'activity.tag.bind',
            { token: w.adminA, query: { activityID: a2, tagID } },
            404,
            /tag not found/,
          );
        await c.fail(
          'activity.tag.bind',
          { token: w.adminA, query: { activityID: a2, tagID: tagPerson } },
          400,
          /^400 tagID must be an activity tag/,
        );
        await c.fail(
          'activity.tag.dismiss',
          { token: w.adminA, query: { activityID: a2, tagID: tagB } },
          404,
          /tag not found/,
        );
        await c.fail(
          'activity.tag.bind',
          { token: w.adminA, query: { activityID: 999999, tagID: tag1 } },
          404,
          /activity not found/,
        );
        expect(await tagsOf(a2)).toEqual([]);
      });

      it('dismisses idempotently, and the public answer follows at once', async () => {
        await c.ok('activity.tag.bind', { token: w.adminA, query: { activityID: a3, tagID: tag1 } });
        expect(idsOf(await c.ok('activity.tag.find', { query: { activityID: a3 } }), 'tagID')).toEqual([String(tag1)]);
        const [pair] = await c.ok('activity.tag.dismiss', { token: w.adminA, query: { activityID: a3, tagID: tag1 } });
        expect(pair).toEqual({ activityID: String(a3), tagID: String(tag1) });
        expect(await c.ok('activity.tag.dismiss', { token: w.adminA, query: { activityID: a3, tagID: tag1 } })).toEqual(
          [pair],
        );
        expect(await tagsOf(a3)).toEqual([]);
        expect(await c.ok('activity.tag.find', { query: { activityID: a3 } })).toEqual([]); // not a stale cached answer
      });

      it('shows a private event’s tags with its grant or a related token, a hidden event’s only to related tokens', async () => {
        const q = { activityID: privateActivity };
        await c.fail('activity.tag.find', { query: q }, 403, /grant/);
        await c.fail('activity.tag.find', { token: w.adminB, query: q }, 403);
        await c.fail('activity.tag.find', { query: { ...q, grant: 'not.a.grant' } }, 403);
        const [check] = await c.ok('event.checkAccessCode', {
          query: { eventID: privateEvent },
          body: { accessCode: ACCESS_CODE },
        });
        expect(check.grant).not.toBe('');
        const withGrant = await c.ok('activity.tag.find', { query: { ...q, grant: check.grant } });
        expect(withGrant).toEqual([expect.objectContaining({ tagID: String(privateTag), name: 'Secret' })]);
        // A grant of another event does not open this one.
        await c.fail(
          'activity.tag.find',
          { query: { activityID: hiddenActivity, grant: check.grant } },
          404,
          /activity not found/,
        );
        expect(await c.ok('activity.tag.find', { token: w.adminA, query: q })).toEqual(withGrant);

        await c.fail('activity.tag.find', { query: { activityID: hiddenActivity } }, 404, /activity not found/);
        await c.fail(
          'activity.tag.find',
          { token: w.adminB, query: { activityID: hiddenActivity } },
          404,
          /activity not found/,
        );
        await c.fail('activity.tag.find', { token: w.attendee, query: { activityID: hiddenActivity } }, 404);
        expect(
          idsOf(await c.ok('activity.tag.find', { token: w.adminA, query: { activityID: hiddenActivity } }), 'name'),
        ).toEqual(['Hush']);
        // An invisible event A hides its tags from the public but not from its members.
        await p.ok('event.edit', { token: w.adminA, query: { eventID: A, key: 'visible' }, body: { value: 0 } });
        try {
          await c.fail('activity.tag.find', { query: { activityID: a1 } }, 404, /activity not found/);
          expect(await c.ok('activity.tag.find', { token: w.attendee, query: { activityID: a1 } })).toHaveLength(2);
        } finally {
          await p.ok('event.edit', { token: w.adminA, query: { eventID: A, key: 'visible' }, body: { value: 1 } });
        }
        await c.fail('activity.tag.find', { query: { activityID: 999999 } }, 404, /activity not found/);
        await c.fail('activity.tag.find', { query: {} }, 400, /^400 activityID cannot be empty/);
        await c.fail('activity.tag.find', { query: { activityID: a1, grant: 'x'.repeat(201) } }, 400, /^400 grant/);
      });

      it('answers 401, 403 to members below admin, 404 to strangers on bind and dismiss', async () => {
        const q = { activityID: a2, tagID: tag1 };
        for (const op of ['activity.tag.bind', 'activity.tag.dismiss']) {
          await c.fail(op, { query: q }, 401);
          await c.fail(op, { token: w.attendee, query: q }, 403);
          await c.fail(op, { token: w.staff, query: q }, 403);
          await c.fail(op, { token: w.adminB, query: q }, 404);
          await c.fail(op, { token: w.adminA, query: { activityID: a2 } }, 400, /^400 tagID cannot be empty/);
        }
        expect(await tagsOf(a2)).toEqual([]);
      });
    });
  });
});
