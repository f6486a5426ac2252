// Activity root operations over real HTTP, in both call styles and on both stores (spec §4.5, §2.4):
// activity.create (one and a CSV file), activity.edit (every key), activity.remove, activity.get (three
// forms), activity.copy, activity.delay and activity.find (five forms). Relations, lists, enrollments
// and invitees are inserted straight into the store: their own operations are tested elsewhere.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf, type Client } from '../helpers/operations.ts';
import { enrollInEvent } from '../../src/platform/resources/attendee/enroll.ts';

/** Fields of spec §2.4 every activity record carries. */
const ACTIVITY_FIELDS = `activityID eventID placeID name description latitude longitude location dateBegin dateEnd
  capacity general highlight personID approved priori stream lockOperations speakers tags`.split(/\s+/);

const HOUR = 3600;
/** 2031-05-10 in São Paulo (UTC-3, no daylight saving): the wall clock `h:m` of that day as Unix seconds. */
const SP = (h: number, m = 0) => Date.UTC(2031, 4, 10, h + 3, m) / 1000;
/** 2031-06-02 12:00 UTC: the program of the find suite. */
const T0 = Date.UTC(2031, 5, 2, 12) / 1000;

type Row = Record<string, string>;

describe.each(STORES)('activity operations on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let eventA: string;
    beforeAll(async () => {
      const base = mkdtempSync(join(tmpdir(), 'podium-activities-'));
      const importDir = join(base, 'imports');
      mkdirSync(importDir);
      writeFileSync(join(base, 'outside.csv'), 'name\nOutside\n');
      const files: Record<string, string> = {
        'two.csv':
          'name,description,location,dateBegin,dateEnd,capacity\r\n' +
          `Opening,"<p>Hello, <b>all</b></p><script>alert(1)</script>",Main Hall,${T0},${T0 + HOUR},100\r\n` +
          `"Panel ""B""",,Room 2,${T0 + HOUR},,\r\n\r\n`,
        'bad-dates.csv': `name,dateBegin,dateEnd\nFirst Good,${T0},${T0 + 60}\nBad Dates,${T0},${T0 - 60}\n`,
        'bad-capacity.csv': 'name,capacity\nBad Capacity,-3\n',
        'no-name.csv': 'name,location\nNamed,Room\n,Room 3\n',
        'bad-column.csv': 'name,room\nX,Y\n',
        'empty.csv': 'name,location\n',
        'bulk300.csv':
          'name,dateBegin,dateEnd\n' +
          Array.from({ length: 300 }, (_, i) => `Talk ${i},${T0 + (i % 50) * 600},${T0 + (i % 50) * 600 + 1800}`).join(
            '\n',
          ),
      };
      p = await startTestPlatform(kind, { IMPORT_DIR: importDir });
      w = await world(p);
      // An event's files are its company's: IMPORT_DIR/<companyID>/ (B's admin finds none of A's).
      const own = join(importDir, w.companyA.companyID);
      mkdirSync(own);
      for (const [name, text] of Object.entries(files)) writeFileSync(join(own, name), text);
      c = client(p, style);
      eventA = w.eventA.eventID;
    });
    afterAll(() => p?.close());

    const create = async (body: Record<string, string | number>, eventID = eventA, token = w.adminA) =>
      (await c.ok('activity.create', { token, query: { eventID }, body }))[0];
    const edit = (activityID: string, key: string, value: string | number, token = w.adminA) =>
      c.call('activity.edit', { token, query: { activityID, key }, body: { value } });
    const stored = (activityID: string) =>
      p.db.selectFrom('activity').selectAll().where('activityID', '=', Number(activityID)).executeTakeFirst();
    /** A new event of company A, visible, with some edits. */
    const newEvent = async (nickname: string, edits: Record<string, string | number> = {}) => {
      const [e] = await c.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: nickname, nickname },
      });
      for (const [key, value] of Object.entries({ visible: 1, ...edits }))
        await c.ok('event.edit', { token: w.adminA, query: { eventID: e.eventID, key }, body: { value } });
      return e.eventID;
    };
    const member = async (eventID: string, personID: number, level = 1) =>
      enrollInEvent(p.db, { eventID: Number(eventID), personID, level, approved: 1 }, 0);
    const enroll = (activityID: string, eventID: string, personID: number, more: Record<string, number> = {}) =>
      p.db
        .insertInto('activityPerson')
        .values({ activityID: Number(activityID), eventID: Number(eventID), personID, approved: 1, ...more })
        .execute();

    /**
     * The auth rules of an admin-only operation: 401 without token, 403 for a related caller whose
     * level or scope is too low, 404 for an unrelated one, 200 for the event's admins.
     */
    const adminOnly = (
      op: string,
      call: () => { query: Record<string, string | number>; body?: Record<string, string> },
    ) =>
      it.each([
        ['no token', null, 401],
        ['an attendee (event scope)', 'attendee', 403],
        ['an attendee (system scope)', 'attendeeSystem', 403],
        ['staff', 'staff', 403],
        ['an event admin with an event-scope token', 'eventAdminEventScope', 403],
        ['an external user of the company', 'externalA', 403],
        ['an admin of another company', 'adminB', 404],
        ['the event admin (system scope)', 'eventAdminSystem', 200],
        ['the operator', 'operator', 200],
      ] as const)(`${op}: %s (%s) → %i`, async (_, who, status) => {
        const { query, body } = call();
        const token = who === null ? undefined : w[who];
        const r = await c.call(op, { token, query: { ...query, sandbox: 1 }, body });
        expect(r.status, r.text).toBe(status);
      });

    describe('activity.create', () => {
      it('creates one activity with every §2.4 field, sanitized HTML and the creator', async () => {
        const row = await create({
          name: '  Keynote  ',
          description: '<p>Hi <a href="javascript:x()">there</a></p><script>alert(1)</script><b onclick="x()">!</b>',
          location: ' Main Hall ',
          dateBegin: T0,
          dateEnd: T0 + HOUR,
          capacity: 50,
        });
        expect(Object.keys(row)).toEqual(expect.arrayContaining(ACTIVITY_FIELDS));
        expect(row).toMatchObject({
          eventID: eventA,
          name: 'Keynote',
          description: '<p>Hi <a>there</a></p><b>!</b>',
          location: 'Main Hall',
          dateBegin: String(T0),
          dateEnd: String(T0 + HOUR),
          capacity: '50',
          oversize: '0',
          general: '0',
          highlight: '0',
          lockOperations: '0',
          stream: '',
          latitude: '',
          longitude: '',
          approved: '-1',
          priori: '0',
          speakers: [],
          tags: [],
        });
        const s = (await stored(row.activityID))!;
        const admin = await p.db
          .selectFrom('person')
          .select('personID')
          .where('username', '=', 'admin-a@podium.test')
          .executeTakeFirstOrThrow();
        expect(s.personID).toBe(admin.personID);
        expect(s.dateCreated).toBeGreaterThan(0);
        expect(s.updatedDate).toBe(s.dateCreated);
        const [got] = await c.ok('activity.get', { query: { activityID: row.activityID } });
        expect(got).toMatchObject({ name: 'Keynote', personID: '' });
      });

      it('defaults dateBegin to the event begin and dateEnd to dateBegin', async () => {
        const e = await newEvent('dated', { dateBegin: T0, dateEnd: T0 + 86400 });
        const a = await create({ name: 'Undated' }, e);
        expect(a).toMatchObject({ dateBegin: String(T0), dateEnd: String(T0), capacity: '0', description: '' });
        const b = await create({ name: 'Begins only', dateBegin: T0 + HOUR }, e);
        expect(b).toMatchObject({ dateBegin: String(T0 + HOUR), dateEnd: String(T0 + HOUR) });
        const d = await create({ name: 'Ends only', dateEnd: T0 + 2 * HOUR }, e);
        expect(d).toMatchObject({ dateBegin: String(T0), dateEnd: String(T0 + 2 * HOUR) });
      });

      it.each([
        ['a blank name', { name: '   ' }, /^400 name cannot be blank/],
        ['a name over 200 characters', { name: 'n'.repeat(201) }, /^400 name must be at most 200/],
        [
          'dateEnd before dateBegin',
          { name: 'X', dateBegin: T0, dateEnd: T0 - 1 },
          /^400 dateEnd cannot be before dateBegin/,
        ],
        [
          'a date that is not a timestamp',
          { name: 'X', dateBegin: '2031-05-10' },
          /^400 dateBegin must be a Unix timestamp/,
        ],
        ['a negative capacity', { name: 'X', capacity: -1 }, /^400 capacity must be an integer from 0/],
        [
          'a capacity past the integer column',
          { name: 'X', capacity: '2147483648' },
          /^400 capacity must be an integer from 0/,
        ],
        ['neither name nor path', { location: 'Room' }, /^400 one of these is required: name; path/],
        ['name and path together', { name: 'X', path: 'two.csv' }, /^400 path cannot be combined with name/],
        ['path with another field', { path: 'two.csv', capacity: 3 }, /^400 path cannot be combined with capacity/],
      ])('refuses %s with 400', async (_, body, message) => {
        await c.fail('activity.create', { token: w.adminA, query: { eventID: eventA }, body }, 400, message);
      });

      it('creates many from a CSV file inside IMPORT_DIR (B path), in file order', async () => {
        const e = await newEvent('bulk-two', { dateBegin: T0 - HOUR });
        const rows = await c.ok('activity.create', {
          token: w.adminA,
          query: { eventID: e },
          body: { path: 'two.csv' },
        });
        expect(rows.map((r) => [r.name, r.description, r.location, r.dateBegin, r.dateEnd, r.capacity])).toEqual([
          ['Opening', '<p>Hello, <b>all</b></p>', 'Main Hall', String(T0), String(T0 + HOUR), '100'],
          ['Panel "B"', '', 'Room 2', String(T0 + HOUR), String(T0 + HOUR), '0'],
        ]);
        for (const r of rows) expect(Object.keys(r)).toEqual(expect.arrayContaining(ACTIVITY_FIELDS));
      });

      it.each([
        ['a row with dateEnd before dateBegin', 'bad-dates.csv', /^400 path row 3: dateEnd cannot be before dateBegin/],
        ['a row with a bad capacity', 'bad-capacity.csv', /^400 path row 2: capacity must be an integer/],
        ['a row without name', 'no-name.csv', /^400 path row 3: name cannot be empty/],
        ['an unknown column', 'bad-column.csv', /^400 path has an unknown column "room"/],
        ['a file without rows', 'empty.csv', /^400 path has no activity rows/],
        ['a path outside the folder', '../outside.csv', /inside the import folder/],
        ['a missing file', 'missing.csv', /readable/],
      ])('refuses %s with 400 and creates nothing', async (_, path, message) => {
        const e = await newEvent(`bad-${path.replace(/[^a-z]/g, '')}`);
        await c.fail('activity.create', { token: w.adminA, query: { eventID: e }, body: { path } }, 400, message);
        const left = await p.db.selectFrom('activity').select('activityID').where('eventID', '=', Number(e)).execute();
        expect(left).toEqual([]);
      });

      it('creates 300 activities from a file and lists them publicly page by page (spec §8)', async () => {
        const e = await newEvent('big-program');
        const rows = await c.ok('activity.create', {
          token: w.adminA,
          query: { eventID: e },
          body: { path: 'bulk300.csv' },
        });
        expect(rows.length).toBe(300);
        // Default page: 20 rows; `paginated=1` adds the total of the whole program.
        expect(await c.ok('activity.find', { query: { eventID: e } })).toHaveLength(20);
        const first = await c.call('activity.find', { query: { eventID: e, limit: 100, paginated: 1 } });
        expect([first.count, first.total]).toEqual([100, '300']);
        await c.fail('activity.find', { query: { eventID: e, limit: 101 } }, 400, /limit must be at most 100/);
        const started = performance.now();
        const pages = await Promise.all(
          [0, 100, 200, 300].map((offset) => c.ok('activity.find', { query: { eventID: e, limit: 100, offset } })),
        );
        expect(performance.now() - started).toBeLessThan(2000);
        expect(pages.map((p) => p.length)).toEqual([100, 100, 100, 0]);
        const program = pages.flat();
        expect(new Set(program.map((r) => r.activityID)).size).toBe(300); // no page overlaps another
        const order = program.map((r) => [Number(r.dateBegin), Number(r.activityID)]);
        expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
        // A selection pages the same way (the token's own program).
        const own = await c.call('activity.find', {
          token: w.adminA,
          query: { eventID: e, selection: 'all', limit: 7, paginated: 1 },
        });
        expect([own.count, own.total]).toEqual([7, '300']);
      });

      it('keeps nothing in sandbox mode', async () => {
        const e = await newEvent('sandboxed');
        const r = await c.ok('activity.create', {
          token: w.adminA,
          query: { eventID: e, sandbox: 1 },
          body: { name: 'Ghost' },
        });
        expect(r[0].name).toBe('Ghost');
        expect(await c.ok('activity.find', { query: { eventID: e } })).toEqual([]);
      });

      it('answers 404 for an unknown event', async () => {
        await c.fail('activity.create', { token: w.operator, query: { eventID: 999999 }, body: { name: 'X' } }, 404);
      });

      adminOnly('activity.create', () => ({ query: { eventID: eventA }, body: { name: 'Matrix' } }));
    });

    describe('activity.edit', () => {
      let activityID: string;
      beforeAll(async () => {
        activityID = (await create({ name: 'Editable', dateBegin: T0, dateEnd: T0 + HOUR })).activityID;
      });

      it.each([
        ['placeID', '12', '12'],
        ['placeID', '', '0'],
        ['name', '  Renamed  ', 'Renamed'],
        [
          'description',
          '<h2>About</h2><iframe src="https://x.example"></iframe><p onclick="x()">ok</p>',
          '<h2>About</h2><p>ok</p>',
        ],
        ['description', '', ''],
        ['location', 'Room 7', 'Room 7'],
        ['location', '', ''],
        ['stream', 'https://video.example.com/live/1', 'https://video.example.com/live/1'],
        ['stream', 'dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
        ['stream', '', ''],
        ['latitude', '38.7223', '38.7223'],
        ['latitude', '-90', '-90'],
        ['latitude', '', ''],
        ['longitude', '-9.1393', '-9.1393'],
        ['longitude', '180', '180'],
        ['longitude', '', ''],
        ['dateBegin', String(T0 - HOUR), String(T0 - HOUR)],
        ['dateEnd', String(T0 + 2 * HOUR), String(T0 + 2 * HOUR)],
        ['capacity', '80', '80'],
        ['capacity', '', '0'],
        ['oversize', '120', '120'],
        ['oversize', '0', '0'],
        ['general', '1', '1'],
        ['general', '0', '0'],
        ['highlight', '1', '1'],
        ['lockOperations', '1', '1'],
        ['lockOperations', '0', '0'],
      ])('sets %s to %j', async (key, value, expected) => {
        const before = (await stored(activityID))!;
        await p.db
          .updateTable('activity')
          .set({ updatedDate: 1 })
          .where('activityID', '=', Number(activityID))
          .execute();
        const r = await edit(activityID, key, value);
        expect(r.status, r.text).toBe(200);
        expect(r.data[0][key]).toBe(expected);
        const [got] = await c.ok('activity.get', { token: w.adminA, query: { activityID } });
        expect(got[key]).toBe(expected);
        const after = (await stored(activityID))!;
        expect(after.updatedDate).toBeGreaterThanOrEqual(before.dateCreated);
        // Only that field changed.
        const { updatedDate: _u, [key]: _k, ...rest } = after as Record<string, unknown>;
        const { updatedDate: _u2, [key]: _k2, ...restBefore } = before as Record<string, unknown>;
        expect(rest).toEqual(restBefore);
      });

      it.each([
        ['placeID', 'x', /^400 value must be an integer from 0/],
        ['placeID', '-1', /^400 value must be an integer from 0/],
        ['placeID', '2147483648', /^400 value must be an integer from 0/],
        ['name', '', /^400 value cannot be empty/],
        ['name', '   ', /^400 value cannot be blank \(key name\)/],
        ['name', 'n'.repeat(201), /^400 value must be at most 200 characters/],
        ['location', 'l'.repeat(501), /^400 value must be at most 500/],
        ['stream', 'javascript:alert(1)', /^400 value must be an http or https URL or a stream id/],
        ['stream', 'two words', /^400 value must be an http or https URL or a stream id/],
        ['latitude', '91', /^400 value must be between -90 and 90/],
        ['latitude', 'north', /^400 value must be a number/],
        ['longitude', '-180.5', /^400 value must be between -180 and 180/],
        ['dateBegin', 'tomorrow', /^400 value must be a Unix timestamp/],
        ['dateBegin', String(T0 + 10 * HOUR), /^400 dateEnd cannot be before dateBegin/],
        ['dateEnd', String(T0 - 10 * HOUR), /^400 dateEnd cannot be before dateBegin/],
        ['dateEnd', '', /^400 value cannot be empty/],
        ['capacity', '-5', /^400 value must be an integer from 0/],
        ['capacity', '1.5', /^400 value must be an integer from 0/],
        ['oversize', 'many', /^400 value must be an integer from 0/],
        ['general', '2', /^400 value must be 0 or 1/],
        ['highlight', 'yes', /^400 value must be 0 or 1/],
        ['lockOperations', '', /^400 value cannot be empty/],
        ['eventID', '2', /^400 key eventID cannot be edited here/],
        ['personID', '1', /^400 key personID cannot be edited here/],
        ['activityID', '1', /^400 key activityID cannot be edited here/],
        ['updatedDate', '1', /^400 key updatedDate cannot be edited here/],
        ['__proto__', '1', /^400 key __proto__ cannot be edited here/],
      ])('refuses %s = %j with 400 and changes nothing', async (key, value, message) => {
        const before = await stored(activityID);
        await c.fail('activity.edit', { token: w.adminA, query: { activityID, key }, body: { value } }, 400, message);
        expect(await stored(activityID)).toEqual(before);
      });

      it('accepts push (0 or 1) and refuses other values', async () => {
        for (const push of [0, 1]) {
          const r = await c.ok('activity.edit', {
            token: w.adminA,
            query: { activityID, key: 'highlight', push },
            body: { value: push },
          });
          expect(r[0].highlight).toBe(String(push));
        }
        await c.fail(
          'activity.edit',
          { token: w.adminA, query: { activityID, key: 'highlight', push: 2 }, body: { value: 1 } },
          400,
          /^400 push must be 0 or 1/,
        );
      });

      it('refuses a missing key and a GET', async () => {
        await c.fail(
          'activity.edit',
          { token: w.adminA, query: { activityID }, body: { value: 'x' } },
          400,
          /^400 key cannot be empty/,
        );
        await c.fail('activity.edit', { token: w.adminA, method: 'GET', query: { activityID, key: 'name' } }, 405);
      });

      it('answers 404 for an unknown activity', async () => {
        await c.fail(
          'activity.edit',
          { token: w.operator, query: { activityID: 999999, key: 'name' }, body: { value: 'X' } },
          404,
          /activity not found/,
        );
      });

      adminOnly('activity.edit', () => ({ query: { activityID, key: 'name' }, body: { value: 'Matrix' } }));
    });

    describe('activity.remove', () => {
      let activityID: string;
      beforeAll(async () => {
        activityID = (await create({ name: 'Doomed', dateBegin: T0, dateEnd: T0 + HOUR })).activityID;
      });

      adminOnly('activity.remove', () => ({ query: { activityID } }));

      it('removes the activity with its enrollments and relations, answering the record as it was', async () => {
        const speaker = await p.db
          .insertInto('speaker')
          .values({ eventID: Number(eventA), name: 'Grace' })
          .returning('speakerID')
          .executeTakeFirstOrThrow();
        await p.db
          .insertInto('activitySpeaker')
          .values({ activityID: Number(activityID), speakerID: speaker.speakerID })
          .execute();
        await enroll(activityID, eventA, w.attendeeID);
        const [row] = await c.ok('activity.remove', { token: w.adminA, query: { activityID } });
        expect(row).toMatchObject({
          activityID,
          name: 'Doomed',
          speakers: [expect.objectContaining({ name: 'Grace' })],
        });
        expect(await stored(activityID)).toBeUndefined();
        for (const t of ['activityPerson', 'activitySpeaker'] as const)
          expect(
            await p.db.selectFrom(t).select('activityID').where('activityID', '=', Number(activityID)).execute(),
          ).toEqual([]);
        await c.fail('activity.get', { token: w.adminA, query: { activityID } }, 404, /activity not found/);
        await c.fail('activity.remove', { token: w.adminA, query: { activityID } }, 404, /activity not found/);
      });

      it('refuses POST and a bad activityID', async () => {
        await c.fail('activity.remove', { token: w.adminA, method: 'POST', query: { activityID: 1 }, body: {} }, 405);
        await c.fail(
          'activity.remove',
          { token: w.adminA, query: { activityID: 'x' } },
          400,
          /^400 activityID must be a positive integer/,
        );
      });
    });

    describe('activity.get', () => {
      let activityID: string;
      let hiddenActivity: string;
      let privateActivity: string;
      let privateEvent: string;
      beforeAll(async () => {
        activityID = (await create({ name: 'Readable', dateBegin: T0, dateEnd: T0 + HOUR })).activityID;
        await enroll(activityID, eventA, w.attendeeID, { approved: 0, priori: 1 });
        const hidden = await newEvent('hidden-get', { visible: 0 });
        hiddenActivity = (await create({ name: 'Hidden' }, hidden)).activityID;
        privateEvent = await newEvent('private-get', { accessCode: 4321, public: 0 });
        privateActivity = (await create({ name: 'Private' }, privateEvent)).activityID;
      });

      it('shows the public form without a token: nobody’s state', async () => {
        const [row] = await c.ok('activity.get', { query: { activityID } });
        expect(Object.keys(row)).toEqual(expect.arrayContaining(ACTIVITY_FIELDS));
        expect(row).toMatchObject({ activityID, name: 'Readable', personID: '', approved: '-1', priori: '0' });
      });

      it('shows the token person’s state to members and to anyone else', async () => {
        for (const token of [w.attendee, w.attendeeSystem]) {
          const [row] = await c.ok('activity.get', { token, query: { activityID } });
          expect(row).toMatchObject({ personID: String(w.attendeeID), approved: '0', priori: '1' });
        }
        const [admin] = await c.ok('activity.get', { token: w.adminA, query: { activityID } });
        expect(admin).toMatchObject({ approved: '-1' });
        expect(admin.personID).not.toBe('');
        // Unrelated to the event: the public rules, with their own (empty) state.
        const [other] = await c.ok('activity.get', { token: w.adminB, query: { activityID } });
        expect(other).toMatchObject({ activityID, approved: '-1' });
      });

      it('shows another person’s state to event admins only (personID)', async () => {
        for (const token of [w.adminA, w.eventAdminSystem, w.operator]) {
          const [row] = await c.ok('activity.get', { token, query: { activityID, personID: w.attendeeID } });
          expect(row).toMatchObject({ personID: String(w.attendeeID), approved: '0', priori: '1' });
        }
        const q = { activityID, personID: w.attendeeID };
        await c.fail('activity.get', { query: q }, 401);
        for (const token of [w.attendee, w.attendeeSystem, w.staff, w.eventAdminEventScope, w.externalA])
          await c.fail('activity.get', { token, query: q }, 403);
        await c.fail('activity.get', { token: w.adminB, query: q }, 404, /activity not found/);
        // A person with no relation to the event.
        const stranger = await p.person('stranger-get@podium.test', 'a long password');
        await c.fail(
          'activity.get',
          { token: w.adminA, query: { activityID, personID: stranger } },
          404,
          /person not found/,
        );
      });

      it('hides activities of invisible events (404) and of private ones without a grant (403)', async () => {
        await c.fail('activity.get', { query: { activityID: hiddenActivity } }, 404, /activity not found/);
        await c.fail('activity.get', { token: w.adminB, query: { activityID: hiddenActivity } }, 404);
        expect((await c.ok('activity.get', { token: w.adminA, query: { activityID: hiddenActivity } }))[0].name).toBe(
          'Hidden',
        );
        await c.fail('activity.get', { query: { activityID: privateActivity } }, 403, /grant/);
        const [check] = await c.ok('event.checkAccessCode', {
          query: { eventID: privateEvent },
          body: { accessCode: 4321 },
        });
        const [row] = await c.ok('activity.get', { query: { activityID: privateActivity, grant: check.grant } });
        expect(row.name).toBe('Private');
        await c.fail('activity.get', { query: { activityID: privateActivity, grant: `${check.grant}x` } }, 403);
        await c.fail('activity.get', { query: { activityID, grant: 'g'.repeat(201) } }, 400, /^400 grant/);
      });

      it('answers 404 for an unknown activity and 400 for a bad id', async () => {
        await c.fail('activity.get', { query: { activityID: 999999 } }, 404, /activity not found/);
        await c.fail('activity.get', { query: {} }, 400, /^400 activityID cannot be empty/);
        await c.fail('activity.get', { query: { activityID: '-1' } }, 400, /^400 activityID/);
      });
    });

    describe('activity.copy', () => {
      let activityID: string;
      const ids: Record<string, number> = {};
      beforeAll(async () => {
        const source = await create({
          name: 'Workshop',
          location: 'Lab',
          dateBegin: T0,
          dateEnd: T0 + HOUR,
          capacity: 20,
          description: '<p>Hands on</p>',
        });
        activityID = source.activityID;
        for (const [key, value] of Object.entries({
          stream: 'abc123',
          latitude: '38.7',
          highlight: '1',
          oversize: '25',
          lockOperations: '1',
          placeID: '4',
        }))
          expect((await edit(activityID, key, value)).status).toBe(200);
        const event = Number(eventA);
        ids.speaker = (
          await p.db
            .insertInto('speaker')
            .values({ eventID: event, name: 'Ada' })
            .returning('speakerID')
            .executeTakeFirstOrThrow()
        ).speakerID;
        ids.sponsor = (
          await p.db
            .insertInto('sponsor')
            .values({ eventID: event, name: 'Acme' })
            .returning('sponsorID')
            .executeTakeFirstOrThrow()
        ).sponsorID;
        ids.tag = (
          await p.db
            .insertInto('tag')
            .values({ companyID: Number(w.companyA.companyID), eventID: event, name: 'Hands-on', kind: 'activity' })
            .returning('tagID')
            .executeTakeFirstOrThrow()
        ).tagID;
        ids.list = (
          await p.db
            .insertInto('list')
            .values({ eventID: event, name: 'VIP' })
            .returning('listID')
            .executeTakeFirstOrThrow()
        ).listID;
        ids.chain = (
          await p.db
            .insertInto('chain')
            .values({ eventID: event, name: 'One workshop' })
            .returning('chainID')
            .executeTakeFirstOrThrow()
        ).chainID;
        const a = Number(activityID);
        await p.db.insertInto('activitySpeaker').values({ activityID: a, speakerID: ids.speaker }).execute();
        await p.db.insertInto('activitySponsor').values({ activityID: a, sponsorID: ids.sponsor }).execute();
        await p.db.insertInto('activityTag').values({ activityID: a, tagID: ids.tag }).execute();
        await p.db.insertInto('activityList').values({ activityID: a, listID: ids.list }).execute();
        await p.db.insertInto('activityChain').values({ activityID: a, chainID: ids.chain }).execute();
        await enroll(activityID, eventA, w.attendeeID);
      });

      it('copies every field (same name), speakers, sponsors, tags, lists and chains, not attendees', async () => {
        const [copy] = await c.ok('activity.copy', { token: w.eventAdminSystem, query: { activityID } });
        const [source] = await c.ok('activity.get', { token: w.eventAdminSystem, query: { activityID } });
        expect(copy.activityID).not.toBe(activityID);
        const { activityID: _a, ...fields } = source;
        expect(copy).toEqual({ ...fields, activityID: copy.activityID });
        expect(copy).toMatchObject({
          name: 'Workshop',
          stream: 'abc123',
          oversize: '25',
          lockOperations: '1',
          speakers: [expect.objectContaining({ speakerID: String(ids.speaker), name: 'Ada' })],
          tags: [expect.objectContaining({ tagID: String(ids.tag), name: 'Hands-on' })],
        });
        const n = Number(copy.activityID);
        const pairs = async (
          t: 'activitySpeaker' | 'activitySponsor' | 'activityTag' | 'activityList' | 'activityChain',
        ) =>
          (await p.db.selectFrom(t).selectAll().where('activityID', '=', n).execute()).map((r) =>
            Object.values(r)
              .map(Number)
              .sort((x, y) => x - y),
          );
        expect(await pairs('activitySpeaker')).toEqual([[Math.min(n, ids.speaker), Math.max(n, ids.speaker)]]);
        expect((await pairs('activitySponsor')).flat()).toContain(ids.sponsor);
        expect((await pairs('activityTag')).flat()).toContain(ids.tag);
        expect((await pairs('activityList')).flat()).toContain(ids.list);
        expect((await pairs('activityChain')).flat()).toContain(ids.chain);
        expect(
          await p.db.selectFrom('activityPerson').select('personID').where('activityID', '=', n).execute(),
        ).toEqual([]);
        const s = (await stored(copy.activityID))!;
        const creator = await p.db
          .selectFrom('person')
          .select('personID')
          .where('username', '=', 'event-admin@podium.test')
          .executeTakeFirstOrThrow();
        expect(s.personID).toBe(creator.personID);
        // The source keeps its relations and its attendee.
        expect(
          await p.db
            .selectFrom('activityPerson')
            .select('personID')
            .where('activityID', '=', Number(activityID))
            .execute(),
        ).toHaveLength(1);
        expect(
          await p.db
            .selectFrom('activitySpeaker')
            .select('speakerID')
            .where('activityID', '=', Number(activityID))
            .execute(),
        ).toHaveLength(1);
      });

      it('answers 404 for an unknown activity', async () => {
        await c.fail('activity.copy', { token: w.adminA, query: { activityID: 999999 } }, 404);
      });

      adminOnly('activity.copy', () => ({ query: { activityID } }));
    });

    describe('activity.delay', () => {
      let event: string;
      const a: Record<string, string> = {};
      const begins = async () => {
        const rows = await p.db
          .selectFrom('activity')
          .select(['activityID', 'dateBegin', 'dateEnd'])
          .where('eventID', '=', Number(event))
          .execute();
        return Object.fromEntries(
          Object.entries(a).map(([k, id]) => {
            const r = rows.find((x) => x.activityID === Number(id))!;
            return [k, [r.dateBegin, r.dateEnd]] as [string, number[]];
          }),
        );
      };
      beforeAll(async () => {
        event = await newEvent('delays', { timezone: 'America/Sao_Paulo' });
        // Local times on 2031-05-10 in São Paulo; late and next are on the next UTC day.
        const plan: Record<string, [number, number]> = {
          early: [SP(8), SP(9)],
          first: [SP(9), SP(10)],
          target: [SP(11), SP(12)],
          same: [SP(11), SP(11, 30)],
          evening: [SP(20), SP(21)],
          late: [SP(22, 30), SP(23, 30)], // 01:30 UTC on the 11th: same day in São Paulo
          next: [SP(24 + 1), SP(24 + 2)], // 01:00 on the 11th in São Paulo
        };
        for (const [key, [dateBegin, dateEnd]] of Object.entries(plan))
          a[key] = (await create({ name: key, dateBegin, dateEnd }, event)).activityID;
      });

      it('delays one activity with subsequent=0', async () => {
        const before = await begins();
        const rows = await c.ok('activity.delay', {
          token: w.adminA,
          query: { activityID: a.target, minutes: 30, subsequent: 0 },
        });
        expect(idsOf(rows, 'name')).toEqual(['target']);
        expect(rows[0]).toMatchObject({ dateBegin: String(SP(11, 30)), dateEnd: String(SP(12, 30)) });
        const after = await begins();
        expect(after).toEqual({ ...before, target: [SP(11, 30), SP(12, 30)] });
        const s = (await stored(a.target))!;
        expect(s.updatedDate).toBeGreaterThanOrEqual(s.dateCreated);
        await c.ok('activity.delay', { token: w.adminA, query: { activityID: a.target, minutes: -30, subsequent: 0 } });
        expect(await begins()).toEqual(before);
      });

      it('with subsequent=1 also delays the later activities of the same day in the event’s time zone', async () => {
        const before = await begins();
        const rows = await c.ok('activity.delay', {
          token: w.adminA,
          query: { activityID: a.target, minutes: 15, subsequent: 1 },
        });
        // `same` begins with target (at or after it); `late` is past midnight UTC but still the 10th locally.
        expect(idsOf(rows, 'name').sort()).toEqual(['evening', 'late', 'same', 'target']);
        const order = rows.map((r) => [Number(r.dateBegin), Number(r.activityID)]);
        expect(order).toEqual([...order].sort((x, y) => x[0] - y[0] || x[1] - y[1]));
        const moved = (k: string) => [before[k][0] + 900, before[k][1] + 900];
        expect(await begins()).toEqual({
          ...before,
          target: moved('target'),
          same: moved('same'),
          evening: moved('evening'),
          late: moved('late'),
        });
        // Back again, and a negative delay of the evening moves evening and late only.
        await c.ok('activity.delay', { token: w.adminA, query: { activityID: a.target, minutes: -15, subsequent: 1 } });
        expect(await begins()).toEqual(before);
        const back = await c.ok('activity.delay', {
          token: w.adminA,
          query: { activityID: a.evening, minutes: -90, subsequent: 1 },
        });
        expect(idsOf(back, 'name')).toEqual(['evening', 'late']);
        await c.ok('activity.delay', { token: w.adminA, query: { activityID: a.evening, minutes: 90, subsequent: 1 } });
        expect(await begins()).toEqual(before);
      });

      it('counts the day in UTC for a UTC event', async () => {
        const e = await newEvent('delays-utc');
        const t = await create({ name: 't', dateBegin: SP(11), dateEnd: SP(12) }, e); // 14:00 UTC
        const l = await create({ name: 'l', dateBegin: SP(22, 30), dateEnd: SP(23) }, e); // 01:30 UTC next day
        const e2 = await create({ name: 'e', dateBegin: SP(20), dateEnd: SP(21) }, e); // 23:00 UTC
        const rows = await c.ok('activity.delay', {
          token: w.adminA,
          query: { activityID: t.activityID, minutes: 10, subsequent: 1 },
        });
        expect(idsOf(rows, 'name')).toEqual(['t', 'e']);
        expect((await stored(l.activityID))!.dateBegin).toBe(SP(22, 30));
        expect((await stored(e2.activityID))!.dateBegin).toBe(SP(20, 10));
      });

      it.each([
        ['minutes over a day', { minutes: 1441, subsequent: 0 }, /^400 minutes must be an integer from -1440 to 1440/],
        ['minutes under minus a day', { minutes: -1441, subsequent: 0 }, /^400 minutes must be an integer from -1440/],
        ['fractional minutes', { minutes: '1.5', subsequent: 0 }, /^400 minutes must be an integer/],
        ['no minutes', { subsequent: 0 }, /^400 minutes cannot be empty/],
        ['no subsequent', { minutes: 5 }, /^400 subsequent cannot be empty/],
        ['subsequent 2', { minutes: 5, subsequent: 2 }, /^400 subsequent must be 0 or 1/],
      ])('refuses %s with 400', async (_, query, message) => {
        await c.fail('activity.delay', { token: w.adminA, query: { activityID: a.target, ...query } }, 400, message);
      });

      it('refuses to delay an activity without dateBegin or before 1970', async () => {
        const e = await newEvent('undated-delay');
        const u = await create({ name: 'u' }, e);
        await c.fail(
          'activity.delay',
          { token: w.adminA, query: { activityID: u.activityID, minutes: 5, subsequent: 0 } },
          400,
          /no dateBegin/,
        );
        const early = await create({ name: 'early', dateBegin: 600, dateEnd: 700 }, e);
        await c.fail(
          'activity.delay',
          { token: w.adminA, query: { activityID: early.activityID, minutes: -11, subsequent: 0 } },
          400,
          /before 1970/,
        );
      });

      it('answers 404 for an unknown activity', async () => {
        await c.fail(
          'activity.delay',
          { token: w.adminA, query: { activityID: 999999, minutes: 5, subsequent: 0 } },
          404,
        );
      });

      describe('in the world’s event', () => {
        let inA: string;
        beforeAll(async () => {
          inA = (await create({ name: 'Delayable', dateBegin: T0, dateEnd: T0 + HOUR })).activityID;
        });
        adminOnly('activity.delay', () => ({ query: { activityID: inA, minutes: 5, subsequent: 1 } }));
      });
    });

    describe('activity.find', () => {
      let event: string;
      let other: number;
      let stranger: number;
      let listIn: number;
      let listOut: number;
      const f: Record<string, string> = {};
      const names = (rows: Row[]) => idsOf(rows, 'name');
      const find = (query: Record<string, string | number>, token?: string) =>
        c.ok('activity.find', { token, query: { eventID: event, ...query } });
      beforeAll(async () => {
        event = await newEvent('program', { timezone: 'Europe/Lisbon' });
        const e = Number(event);
        await member(event, w.attendeeID);
        other = await p.person('other-find@podium.test', 'a long password');
        await member(event, other);
        stranger = await p.person('stranger-find@podium.test', 'a long password');
        const slot = (i: number) => ({ dateBegin: T0 + i * HOUR, dateEnd: T0 + (i + 1) * HOUR });
        // Created out of order: the answer is ordered by dateBegin, then activityID.
        for (const [name, i, more] of [
          ['F9', 24, {}],
          ['F1', 0, {}],
          ['F2', 1, {}],
          ['F3', 2, {}],
          ['F4', 3, {}],
          ['F5', 4, { capacity: 1 }],
          ['F6', 5, { capacity: 1 }],
          ['F7', 6, {}],
          ['F8', 7, {}],
          ['F8b', 7, {}],
        ] as const)
          f[name] = (await create({ name, ...slot(i), ...more }, event)).activityID;
        expect((await edit(f.F6, 'oversize', 3)).status).toBe(200);
        expect((await edit(f.F7, 'lockOperations', 1)).status).toBe(200);
        // The attendee: approved, paid and present in F1; waiting (approved 0) in F2.
        await enroll(f.F1, event, w.attendeeID, { paid: 1, present: 1, priori: 1 });
        await enroll(f.F2, event, w.attendeeID, { approved: 0 });
        // F3 is limited to a list the attendee is in, F4 to one they are not in.
        listIn = (
          await p.db.insertInto('list').values({ eventID: e, name: 'In' }).returning('listID').executeTakeFirstOrThrow()
        ).listID;
        listOut = (
          await p.db
            .insertInto('list')
            .values({ eventID: e, name: 'Out' })
            .returning('listID')
            .executeTakeFirstOrThrow()
        ).listID;
        await p.db.insertInto('listPerson').values({ listID: listIn, personID: w.attendeeID }).execute();
        await p.db
          .insertInto('activityList')
          .values([
            { activityID: Number(f.F3), listID: listIn },
            { activityID: Number(f.F4), listID: listOut },
          ])
          .execute();
        // F5 is full (capacity 1, no waiting list); F6 is full but has waiting places (oversize 3).
        await enroll(f.F5, event, other);
        await enroll(f.F6, event, other);
        // F8 shares a one-activity chain with F1, where the attendee is already enrolled.
        const chain = (
          await p.db
            .insertInto('chain')
            .values({ eventID: e, name: 'Pick one' })
            .returning('chainID')
            .executeTakeFirstOrThrow()
        ).chainID;
        await p.db
          .insertInto('activityChain')
          .values([
            { chainID: chain, activityID: Number(f.F1) },
            { chainID: chain, activityID: Number(f.F8) },
          ])
          .execute();
        const speaker = (
          await p.db
            .insertInto('speaker')
            .values({ eventID: e, name: 'Linus', headline: 'Kernel' })
            .returning('speakerID')
            .executeTakeFirstOrThrow()
        ).speakerID;
        const tag = (
          await p.db
            .insertInto('tag')
            .values({
              companyID: Number(w.companyA.companyID),
              eventID: e,
              name: 'Systems',
              color: '#123456',
              kind: 'activity',
            })
            .returning('tagID')
            .executeTakeFirstOrThrow()
        ).tagID;
        await p.db
          .insertInto('activitySpeaker')
          .values({ activityID: Number(f.F1), speakerID: speaker })
          .execute();
        await p.db
          .insertInto('activityTag')
          .values({ activityID: Number(f.F1), tagID: tag })
          .execute();
        await p.db
          .insertInto('eventInvite')
          .values({ eventID: e, email: 'guest@example.com', dateCreated: 0 })
          .execute();
      });

      const ALL = ['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F8b', 'F9'];

      describe('the token person (selection)', () => {
        it.each([
          ['all', ALL],
          ['all+meeting', ALL],
          ['all meeting', ALL],
          ['enrolled', ['F1', 'F2']],
          ['enrolled+meeting', ['F1', 'F2']],
          ['approved', ['F1']],
          ['denied', ['F2']],
          ['paid', ['F1']],
          ['present', ['F1']],
          ['available', ['F3', 'F6', 'F8b', 'F9']],
          ['enrolled|paid', ['F1']],
          ['enrolled|available', []],
        ])('selection=%s', async (selection, expected) => {
          for (const token of [w.attendeeSystem]) expect(names(await find({ selection }, token))).toEqual(expected);
        });

        it('carries the person’s state, speakers and tags on every record', async () => {
          const rows = await find({ selection: 'all' }, w.attendeeSystem);
          for (const r of rows) {
            expect(Object.keys(r)).toEqual(expect.arrayContaining(ACTIVITY_FIELDS));
            expect(r.personID).toBe(String(w.attendeeID));
          }
          const by = Object.fromEntries(rows.map((r) => [r.name, r]));
          expect(by.F1).toMatchObject({
            approved: '1',
            priori: '1',
            speakers: [expect.objectContaining({ name: 'Linus', headline: 'Kernel' })],
            tags: [expect.objectContaining({ name: 'Systems', color: '#123456' })],
          });
          expect(by.F2).toMatchObject({ approved: '0', speakers: [], tags: [] });
          expect(by.F3.approved).toBe('-1');
        });

        it('filters by dateBegin/dateEnd: activities that end at or after dateBegin and begin at or before dateEnd', async () => {
          const rows = await find(
            { selection: 'all', dateBegin: T0 + 2 * HOUR + 1, dateEnd: T0 + 4 * HOUR },
            w.attendeeSystem,
          );
          expect(names(rows)).toEqual(['F3', 'F4', 'F5']);
          expect(names(await find({ selection: 'all', dateBegin: T0 + 3 * HOUR }, w.attendeeSystem))).toEqual([
            'F3',
            'F4',
            'F5',
            'F6',
            'F7',
            'F8',
            'F8b',
            'F9',
          ]);
          expect(names(await find({ selection: 'enrolled', dateEnd: T0 }, w.attendeeSystem))).toEqual(['F1']);
          await c.fail(
            'activity.find',
            { token: w.attendeeSystem, query: { eventID: event, selection: 'all', dateBegin: T0 + 10, dateEnd: T0 } },
            400,
            /^400 dateEnd cannot be before dateBegin/,
          );
        });

        it('lets any member level and the company’s admins read it; others get 401/403/404', async () => {
          expect(names(await find({ selection: 'enrolled' }, w.adminA))).toEqual([]);
          await c.fail('activity.find', { query: { eventID: event, selection: 'all' } }, 401);
          await c.fail('activity.find', { token: w.externalA, query: { eventID: event, selection: 'all' } }, 403);
          await c.fail('activity.find', { token: w.attendee, query: { eventID: event, selection: 'all' } }, 404); // event-scope token of another event
          await c.fail('activity.find', { token: w.adminB, query: { eventID: event, selection: 'all' } }, 404);
          expect(
            names(await c.ok('activity.find', { token: w.attendee, query: { eventID: eventA, selection: 'all' } }))
              .length,
          ).toBeGreaterThan(0);
          await c.fail('activity.find', { token: w.attendeeSystem, query: { eventID: 999999, selection: 'all' } }, 404);
        });

        it.each([
          ['an unknown selection', { selection: 'bogus' }, /^400 selection has an unknown value "bogus"/],
          [
            'personID and listID together',
            { selection: 'all', personID: 1, listID: 1 },
            /^400 personID and listID cannot be used together/,
          ],
          ['personID without selection', { personID: 1 }, /^400 selection cannot be empty \(with personID\)/],
          ['listID without selection', { listID: 1 }, /^400 selection cannot be empty \(with listID\)/],
          ['a bad dateBegin', { selection: 'all', dateBegin: 'soon' }, /^400 dateBegin must be a Unix timestamp/],
        ])('refuses %s with 400', async (_, query, message) => {
          await c.fail('activity.find', { token: w.adminA, query: { eventID: event, ...query } }, 400, message);
        });
      });

      describe('of a person (personID, admins)', () => {
        it.each([
          ['all', ALL],
          ['enrolled', ['F1', 'F2']],
          // An admin may enroll a person where lockOperations is set (F7); the rest as for the person.
          ['available', ['F3', 'F6', 'F7', 'F8b', 'F9']],
        ])('selection=%s', async (selection, expected) => {
          const rows = await find({ selection, personID: w.attendeeID }, w.adminA);
          expect(names(rows)).toEqual(expected);
          for (const r of rows) expect(r.personID).toBe(String(w.attendeeID));
        });

        it('shows the person’s state, and another person’s availability', async () => {
          const rows = await find({ selection: 'all', personID: w.attendeeID }, w.operator);
          expect(rows.find((r) => r.name === 'F2')!.approved).toBe('0');
          // The other person is in no list and enrolled in F5, F6 (not in F1): F8 is open to them.
          expect(names(await find({ selection: 'available', personID: other }, w.adminA))).toEqual([
            'F1',
            'F2',
            'F7',
            'F8',
            'F8b',
            'F9',
          ]);
        });

        it('refuses selections of the token form, people outside the event, and non-admins', async () => {
          await c.fail(
            'activity.find',
            { token: w.adminA, query: { eventID: event, selection: 'approved', personID: w.attendeeID } },
            400,
            /^400 selection approved cannot be used with personID/,
          );
          await c.fail(
            'activity.find',
            { token: w.adminA, query: { eventID: event, selection: 'all', personID: stranger } },
            404,
            /person not found/,
          );
          const q = { eventID: event, selection: 'all', personID: w.attendeeID };
          await c.fail('activity.find', { query: q }, 401);
          await c.fail('activity.find', { token: w.attendeeSystem, query: q }, 403);
          await c.fail('activity.find', { token: w.externalA, query: q }, 403);
          await c.fail('activity.find', { token: w.adminB, query: q }, 404);
        });
      });

      describe('of a list (listID, admins)', () => {
        it.each([
          ['all', ALL],
          ['enrolled', ['F3']],
          ['available', ['F1', 'F2', 'F3', 'F5', 'F6', 'F7', 'F8', 'F8b', 'F9']],
        ])('selection=%s', async (selection, expected) => {
          const rows = await find({ selection, listID: listIn }, w.adminA);
          expect(names(rows)).toEqual(expected);
          for (const r of rows) expect(r).toMatchObject({ personID: '', approved: '-1' });
        });

        it('answers for the other list, and refuses lists of other events and non-admins', async () => {
          expect(names(await find({ selection: 'enrolled', listID: listOut }, w.adminA))).toEqual(['F4']);
          expect(names(await find({ selection: 'available', listID: listOut }, w.adminA))).not.toContain('F3');
          const foreign = (
            await p.db
              .insertInto('list')
              .values({ eventID: Number(eventA), name: 'Foreign' })
              .returning('listID')
              .executeTakeFirstOrThrow()
          ).listID;
          await c.fail(
            'activity.find',
            { token: w.adminA, query: { eventID: event, selection: 'all', listID: foreign } },
            404,
            /list not found/,
          );
          await c.fail(
            'activity.find',
            { token: w.adminA, query: { eventID: event, selection: 'all', listID: 999999 } },
            404,
            /list not found/,
          );
          await c.fail(
            'activity.find',
            { token: w.adminA, query: { eventID: event, selection: 'denied', listID: listIn } },
            400,
            /^400 selection denied cannot be used with listID/,
          );
          await c.fail(
            'activity.find',
            { token: w.attendeeSystem, query: { eventID: event, selection: 'all', listID: listIn } },
            403,
          );
          await c.fail(
            'activity.find',
            { token: w.adminB, query: { eventID: event, selection: 'all', listID: listIn } },
            404,
          );
        });
      });

      describe('public (no token)', () => {
        let hidden: string;
        let locked: string;
        beforeAll(async () => {
          hidden = await newEvent('program-hidden', { visible: 0 });
          await create({ name: 'Hidden talk' }, hidden);
          locked = await newEvent('program-locked');
          await create({ name: 'Locked talk' }, locked);
          // Made private after creation: event.edit accessCode, then public=0.
          await c.ok('event.edit', {
            token: w.adminA,
            query: { eventID: locked, key: 'accessCode' },
            body: { value: 4321 },
          });
          await c.ok('event.edit', { token: w.adminA, query: { eventID: locked, key: 'public' }, body: { value: 0 } });
        });

        it('lists the whole program in order, with nobody’s state (GET and POST)', async () => {
          for (const method of ['GET', 'POST'] as const) {
            const rows = await c.ok('activity.find', {
              method,
              query: { eventID: event },
              body: method === 'POST' ? {} : undefined,
            });
            expect(names(rows)).toEqual(ALL);
            for (const r of rows) expect(r).toMatchObject({ personID: '', approved: '-1' });
            expect(rows[0].speakers).toEqual([expect.objectContaining({ name: 'Linus' })]);
          }
          const window = await c.ok('activity.find', { query: { eventID: event, dateBegin: T0 + 24 * HOUR } });
          expect(names(window)).toEqual(['F9']);
        });

        it('shows a token’s own state when one is sent', async () => {
          const rows = await c.ok('activity.find', { token: w.attendeeSystem, query: { eventID: event } });
          expect(rows.find((r) => r.name === 'F1')).toMatchObject({ approved: '1', personID: String(w.attendeeID) });
        });

        it('hides invisible events (404) and private ones without a grant (403)', async () => {
          await c.fail('activity.find', { query: { eventID: hidden } }, 404, /event not found/);
          await c.fail('activity.find', { query: { eventID: 999999 } }, 404);
          await c.fail('activity.find', { query: { eventID: locked } }, 403, /private/);
          await c.fail('activity.find', { method: 'POST', query: { eventID: locked }, body: {} }, 403);
          // The company's admins still read both.
          expect(names(await c.ok('activity.find', { token: w.adminA, query: { eventID: hidden } }))).toEqual([
            'Hidden talk',
          ]);
          const [check] = await c.ok('event.checkAccessCode', {
            query: { eventID: locked },
            body: { accessCode: 4321 },
          });
          expect(check.correct).toBe('1');
          expect(names(await c.ok('activity.find', { query: { eventID: locked, grant: check.grant } }))).toEqual([
            'Locked talk',
          ]);
          // A grant opens only its own event, and never an invisible one.
          expect(names(await c.ok('activity.find', { query: { eventID: event, grant: check.grant } }))).toEqual(ALL);
          await c.fail('activity.find', { query: { eventID: hidden, grant: check.grant } }, 404);
        });

        it('accepts an invitee e-mail (POST B invite) and refuses one not on the list with 403', async () => {
          const rows = await c.ok('activity.find', {
            query: { eventID: event },
            body: { invite: 'Guest@Example.com' },
          });
          expect(names(rows)).toEqual(ALL);
          await c.fail(
            'activity.find',
            { query: { eventID: event }, body: { invite: 'nobody@example.com' } },
            403,
            /^403 invite is not on the invitee list$/,
          );
          await c.fail(
            'activity.find',
            { query: { eventID: event }, body: { invite: 'not-an-email' } },
            400,
            /^400 invite must be an e-mail/,
          );
          await c.fail(
            'activity.find',
            { token: w.adminA, query: { eventID: event, selection: 'all' }, body: { invite: 'guest@example.com' } },
            400,
            /^400 invite goes only with the public form/,
          );
        });

        it('throttles wrong invite e-mails (429 with Retry-After), then refuses even listed ones for that client', async () => {
          const e = await newEvent('invite-throttle');
          await p.db
            .insertInto('eventInvite')
            .values({ eventID: Number(e), email: 'vip@example.com', dateCreated: 0 })
            .execute();
          for (let i = 0; i < 20; i++)
            await c.fail('activity.find', { query: { eventID: e }, body: { invite: `wrong${i}@example.com` } }, 403);
          const r = await c.fail('activity.find', { query: { eventID: e }, body: { invite: 'vip@example.com' } }, 429);
          expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3000);
          // Another event's invitee list is not affected.
          expect(
            names(await c.ok('activity.find', { query: { eventID: event }, body: { invite: 'guest@example.com' } })),
          ).toEqual(ALL);
        });

        it('never serves a stale cached program after a write', async () => {
          const q = { eventID: event, dateBegin: T0 + 24 * HOUR };
          expect(names(await c.ok('activity.find', { query: q }))).toEqual(['F9']);
          const [cached] = await c.ok('activity.get', { query: { activityID: f.F9 } });
          expect(cached.name).toBe('F9');
          expect((await edit(f.F9, 'name', 'F9 renamed')).status).toBe(200);
          expect(names(await c.ok('activity.find', { query: q }))).toEqual(['F9 renamed']);
          expect((await c.ok('activity.get', { query: { activityID: f.F9 } }))[0].name).toBe('F9 renamed');
          expect((await edit(f.F9, 'name', 'F9')).status).toBe(200);
          expect(names(await c.ok('activity.find', { query: q }))).toEqual(['F9']);
        });
      });
    });
  });
});
