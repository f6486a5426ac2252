// Activity attendees (spec §4.6, §3, §2.5) over real HTTP, in both call styles and on both stores:
// every form of activity.person.bind / operate / dismiss / find / get / calculate, the seat rules
// (capacity, waiting list, promotion, oversize), chains, lists, lockOperations, the JSON and CSV bulk
// forms and concurrent binds. Activities, chains, lists and attendees are made straight in the store.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, nowSeconds, type Client } from '../helpers/operations.ts';
import { createPerson } from '../../src/platform/resources/person/repository.ts';
import { enrollInEvent } from '../../src/platform/resources/attendee/enroll.ts';
import { dismissFromEvent } from '../../src/platform/resources/enrollment/seats.ts';

/** The activity attendee record: spec §2.5 fields plus the activity, event, name, e-mail and date. */
const FIELDS = [
  'activityID', 'eventID', 'enrollmentID', 'personID', 'name', 'email', 'position', 'approved', 'paid', 'present',
  'priori', 'rating', 'dateCreated',
]; // prettier-ignore
const CALCULATE_FIELDS = [
  'activityID', 'capacity', 'oversize', 'approved', 'waiting', 'attending', 'paid', 'present', 'remaining',
  'openings', 'waitingList', 'full',
]; // prettier-ignore

type Q = Record<string, string | number>;

describe.each(STORES)('activity attendees on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let eventA: number;
    let eventB: number;
    /** Members of event A (level 1) with system tokens, for the own forms. */
    let m1: { id: string; token: string };
    let m2: { id: string; token: string };
    let n = 0;
    let importDir: string;

    beforeAll(async () => {
      importDir = join(mkdtempSync(join(tmpdir(), 'podium-attendance-')), 'imports');
      mkdirSync(importDir);
      p = await startTestPlatform(kind, { IMPORT_DIR: importDir });
      w = await world(p);
      c = client(p, style);
      eventA = Number(w.eventA.eventID);
      eventB = Number(w.eventB.eventID);
      const member = async (email: string) => {
        const personID = await p.person(email, PASSWORD);
        await enrollInEvent(p.db, { eventID: eventA, personID, level: 1 }, nowSeconds());
        return { id: String(personID), token: await p.signIn(email, PASSWORD) };
      };
      m1 = await member('member-one@podium.test');
      m2 = await member('member-two@podium.test');
    });
    afterAll(() => p?.close());

    /** An activity of event A (or another event) made in the store. */
    async function activity(
      o: { capacity?: number; oversize?: number; lockOperations?: number; eventID?: number } = {},
    ) {
      const row = await p.db
        .insertInto('activity')
        .values({
          eventID: o.eventID ?? eventA,
          name: `Session ${++n}`,
          capacity: o.capacity ?? 0,
          oversize: o.oversize ?? 0,
          lockOperations: o.lockOperations ?? 0,
        })
        .returning('activityID')
        .executeTakeFirstOrThrow();
      return String(row.activityID);
    }
    /** A person enrolled in an event (default A), without a password. */
    async function attendee(eventID = eventA, name?: string) {
      const label = `person-${++n}`;
      const profile = { username: `${label}@podium.test`, name: name ?? `Person ${label}` };
      const personID = await createPerson(p.db, profile, nowSeconds());
      // The event's record of the attendee carries the name (and e-mail) it shows.
      const email = profile.username;
      await enrollInEvent(p.db, { eventID, personID, level: 1, ...profile, email }, nowSeconds());
      return String(personID);
    }
    async function people(count: number) {
      const out: string[] = [];
      for (let i = 0; i < count; i++) out.push(await attendee());
      return out;
    }
    async function chain(activityIDs: string[], maxPerPerson?: number, name = `Chain ${++n}`) {
      const row = await p.db
        .insertInto('chain')
        .values({ eventID: eventA, name, ...(maxPerPerson ? { maxPerPerson } : {}) })
        .returning('chainID')
        .executeTakeFirstOrThrow();
      for (const a of activityIDs)
        await p.db
          .insertInto('activityChain')
          .values({ chainID: row.chainID, activityID: Number(a) })
          .execute();
      return String(row.chainID);
    }
    async function list(activityID: string, members: string[]) {
      const row = await p.db
        .insertInto('list')
        .values({ eventID: eventA, name: `List ${++n}` })
        .returning('listID')
        .executeTakeFirstOrThrow();
      await p.db
        .insertInto('activityList')
        .values({ activityID: Number(activityID), listID: row.listID })
        .execute();
      for (const m of members)
        await p.db
          .insertInto('listPerson')
          .values({ listID: row.listID, personID: Number(m) })
          .execute();
      return String(row.listID);
    }

    const bindOk = async (activityID: string, personID: string, token = w.adminA) =>
      (await c.ok('activity.person.bind', { token, query: { activityID, personID } }))[0];
    const dismissOk = async (activityID: string, personID: string, token = w.adminA) =>
      (await c.ok('activity.person.dismiss', { token, query: { activityID, personID } }))[0];
    const operate = (activityID: string, key: string, value: string | number, personID?: string, token = w.adminA) =>
      c.call('activity.person.operate', {
        token,
        query: { activityID, key, ...(personID ? { personID } : {}) },
        body: { value },
      });
    const calculate = async (activityID: string, token = w.adminA) =>
      (await c.ok('activity.person.calculate', { token, query: { activityID } }))[0];
    /** The enrollments of an activity as the store has them: personID → [approved, position]. */
    const stored = async (activityID: string) =>
      Object.fromEntries(
        (
          await p.db
            .selectFrom('activityPerson')
            .select(['personID', 'approved', 'position'])
            .where('activityID', '=', Number(activityID))
            .execute()
        ).map((r) => [String(r.personID), [r.approved, r.position]]),
      );

    describe('activity.person.bind by personID (admin)', () => {
      it('enrolls an attendee with the §2.5 record; binding again answers the same row', async () => {
        const a = await activity();
        const who = await attendee(eventA, 'Ada Lovelace');
        const before = nowSeconds();
        const row = await bindOk(a, who);
        expect(Object.keys(row).sort()).toEqual([...FIELDS].sort());
        expect(row).toMatchObject({
          activityID: a,
          eventID: String(eventA),
          personID: who,
          name: 'Ada Lovelace',
          approved: '1',
          position: '0',
          paid: '0',
          present: '0',
          priori: '0',
          rating: '0',
        });
        expect(Number(row.dateCreated)).toBeGreaterThanOrEqual(before);
        expect(await bindOk(a, who)).toEqual(row);
        expect(Object.keys(await stored(a))).toEqual([who]);
      });

      it('accepts bypassWebhook (no webhooks exist yet) and a POST of the query-only form', async () => {
        const a = await activity();
        const who = await attendee();
        const [row] = await c.ok('activity.person.bind', {
          token: w.adminA,
          method: 'POST',
          query: { activityID: a, personID: who, bypassWebhook: 1 },
          body: {},
        });
        expect(row).toMatchObject({ personID: who, approved: '1' });
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: who, bypassWebhook: 2 } }, 400, /bypassWebhook/); // prettier-ignore
      });

      it('works for event admins with a system token, not for their event-scope token, members or staff', async () => {
        const a = await activity();
        const who = await attendee();
        expect((await bindOk(a, who, w.eventAdminSystem)).approved).toBe('1');
        for (const token of [w.eventAdminEventScope, w.attendee, w.staff, m1.token])
          await c.fail('activity.person.bind', { token, query: { activityID: a, personID: m2.id } }, 403, /only event admins may/); // prettier-ignore
        expect(Object.keys(await stored(a))).toEqual([who]);
      });

      it('answers 404 for a person who is not an attendee of the event, and for unknown ids', async () => {
        const a = await activity();
        const other = await attendee(eventB);
        const nobody = String(await createPerson(p.db, { username: `loner-${++n}@podium.test` }, nowSeconds()));
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: other } }, 404, /person not found/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: nobody } }, 404, /person not found/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: 999999 } }, 404, /person not found/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: 999999, personID: m1.id } }, 404, /activity not found/); // prettier-ignore
        expect(await stored(a)).toEqual({});
      });

      it('refuses callers without a token (401) and unrelated ones (404)', async () => {
        const a = await activity();
        await c.fail('activity.person.bind', { query: { activityID: a, personID: m1.id } }, 401);
        await c.fail('activity.person.bind', { token: w.adminB, query: { activityID: a, personID: m1.id } }, 404, /^404 activity not found$/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminB, query: { activityID: a } }, 404);
      });

      it('refuses mixed or incomplete forms with 400', async () => {
        const a = await activity();
        await c.fail('activity.person.bind', { token: w.adminA, query: {} }, 400, /one of these is required/);
        await c.fail('activity.person.bind', { token: w.adminA, query: { eventID: eventA, personID: m1.id } }, 400, /one of these is required/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, eventID: eventA, personID: m1.id } }, 400, /eventID is only used with content/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: 'x', personID: m1.id } }, 400, /^400 activityID/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: m1.id }, body: { email: 'x@podium.test', name: 'X' } }, 400, /only one of personID, name \+ email/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a }, body: { email: 'x@podium.test' } }, 400, /name cannot be empty/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a }, body: { name: 'X' } }, 400, /email cannot be empty/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a }, body: { name: 'X', email: 'not-mail' } }, 400, /^400 email/); // prettier-ignore
        expect(await stored(a)).toEqual({});
      });
    });

    describe('seats: capacity, waiting list, oversize, promotion', () => {
      it('approves up to capacity, then queues up to oversize, then answers 409 activity is full', async () => {
        const a = await activity({ capacity: 2, oversize: 4 });
        const [p1, p2, p3, p4, p5] = await people(5);
        expect((await bindOk(a, p1)).approved).toBe('1');
        expect((await bindOk(a, p2)).approved).toBe('1');
        expect(await bindOk(a, p3)).toMatchObject({ approved: '0', position: '1' });
        expect(await bindOk(a, p4)).toMatchObject({ approved: '0', position: '2' });
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: p5 } }, 409, /^409 activity is full$/); // prettier-ignore
        // Binding someone already enrolled is not refused when full: their row, unchanged.
        expect(await bindOk(a, p4)).toMatchObject({ approved: '0', position: '2' });
        expect(await calculate(a)).toEqual({
          activityID: a, capacity: '2', oversize: '4', approved: '2', waiting: '2', attending: '4', paid: '0',
          present: '0', remaining: '0', openings: '0', waitingList: '0', full: '1',
        }); // prettier-ignore
        expect(await stored(a)).toEqual({ [p1]: [1, 0], [p2]: [1, 0], [p3]: [0, 1], [p4]: [0, 2] });
      });

      it('dismissing an approved person promotes the first waiting one (priori 1 first, then enrollment order)', async () => {
        const a = await activity({ capacity: 2 });
        const [p1, p2, p3, p4, p5] = await people(5);
        for (const x of [p1, p2, p3, p4, p5]) await bindOk(a, x);
        expect(await stored(a)).toMatchObject({ [p3]: [0, 1], [p4]: [0, 2], [p5]: [0, 3] });
        // priori 1 moves p5 to the head of the queue.
        expect((await operate(a, 'priori', 1, p5)).status).toBe(200);
        expect(await stored(a)).toMatchObject({ [p5]: [0, 1], [p3]: [0, 2], [p4]: [0, 3] });
        const gone = await dismissOk(a, p1);
        expect(gone).toMatchObject({ personID: p1, approved: '-1', enrollmentID: '', dismissed: '1' });
        expect(await stored(a)).toEqual({ [p2]: [1, 0], [p5]: [1, 0], [p3]: [0, 1], [p4]: [0, 2] });
        // Dismissing someone waiting promotes nobody and renumbers the queue.
        await dismissOk(a, p3);
        expect(await stored(a)).toEqual({ [p2]: [1, 0], [p5]: [1, 0], [p4]: [0, 1] });
        await dismissOk(a, p2);
        expect(await stored(a)).toEqual({ [p5]: [1, 0], [p4]: [1, 0] });
        // Dismissing someone not enrolled changes nothing.
        expect(await dismissOk(a, p1)).toMatchObject({ approved: '-1', dismissed: '0' });
        const rows = await c.ok('activity.person.find', {
          token: w.adminA,
          query: { activityID: a, selection: 'all' },
        });
        expect(rows.map((r) => r.personID)).toEqual([p4, p5]);
      });

      it('oversize 0 with a capacity: the waiting list has no limit', async () => {
        const a = await activity({ capacity: 1 });
        const list = await people(4);
        for (const x of list) await bindOk(a, x);
        expect(await calculate(a)).toMatchObject({ approved: '1', waiting: '3', remaining: '0', openings: '', waitingList: '1', full: '0' }); // prettier-ignore
      });

      it('no capacity: everyone is approved, up to oversize', async () => {
        const a = await activity({ oversize: 2 });
        const [p1, p2, p3] = await people(3);
        expect(await calculate(a)).toMatchObject({ remaining: '2', openings: '2', waitingList: '0', full: '0' });
        await bindOk(a, p1);
        await bindOk(a, p2);
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: p3 } }, 409, /activity is full/); // prettier-ignore
        expect(await stored(a)).toEqual({ [p1]: [1, 0], [p2]: [1, 0] });
        const open = await activity();
        expect(await calculate(open)).toMatchObject({ capacity: '0', oversize: '0', remaining: '', openings: '', full: '0' }); // prettier-ignore
      });
    });

    describe('activity.person.bind by name and e-mail (admin)', () => {
      it('creates the person, enrolls them in the event and binds them; an existing e-mail is reused', async () => {
        const a = await activity();
        const email = `new-${++n}-${style}@podium.test`;
        const [row] = await c.ok('activity.person.bind', {
          token: w.adminA,
          query: { activityID: a, bypassWebhook: 0 },
          body: { name: 'Grace Hopper', email: email.toUpperCase() },
        });
        expect(row).toMatchObject({ activityID: a, name: 'Grace Hopper', email, approved: '1' });
        const member = await p.db
          .selectFrom('eventPerson')
          .select(['level', 'qrCode'])
          .where('eventID', '=', eventA)
          .where('personID', '=', Number(row.personID))
          .executeTakeFirstOrThrow();
        expect(member.level).toBe(1);
        expect(member.qrCode).not.toBe('');
        // Same e-mail into another activity: the same person, not a new one.
        const b = await activity();
        const [again] = await c.ok('activity.person.bind', {
          token: w.adminA,
          query: { activityID: b },
          body: { name: 'Someone Else', email },
        });
        expect(again).toMatchObject({ personID: row.personID, name: 'Grace Hopper' });
        // A person of the platform who is not an attendee yet is enrolled in the event.
        const [admin] = await c.ok('activity.person.bind', {
          token: w.adminA,
          query: { activityID: a },
          body: { name: 'External', email: 'external-a@podium.test' },
        });
        expect(admin.email).toBe('external-a@podium.test');
        const enrolled = await p.db
          .selectFrom('eventPerson')
          .select('personID')
          .where('eventID', '=', eventA)
          .where('personID', '=', Number(admin.personID))
          .executeTakeFirst();
        expect(enrolled).toBeDefined();
      });

      it('is for admins only and creates nothing otherwise', async () => {
        const a = await activity();
        const email = `refused-${++n}@podium.test`;
        await c.fail('activity.person.bind', { token: w.attendee, query: { activityID: a }, body: { name: 'No', email } }, 403, /only event admins may/); // prettier-ignore
        const person = await p.db.selectFrom('person').select('personID').where('email', '=', email).executeTakeFirst();
        expect(person).toBeUndefined();
      });
    });

    describe('activity.person.bind by CSV file (admin, B path)', () => {
      it('binds personID and e-mail rows, all or nothing', async () => {
        const dir = join(importDir, w.companyA.companyID); // the company's own folder
        mkdirSync(dir, { recursive: true });
        const a = await activity({ capacity: 2 });
        const [x, y] = await people(2);
        const fresh = `csv-${++n}-${style}@podium.test`;
        writeFileSync(
          join(dir, `ok-${n}.csv`),
          `personID,email,name\r\n${x},,\r\n,${fresh},"Csv, Person"\r\n${y},,\r\n`,
        );
        const rows = await c.ok('activity.person.bind', { token: w.adminA, query: { activityID: a }, body: { path: `ok-${n}.csv` } }); // prettier-ignore
        expect(rows.map((r) => [r.personID === x || r.personID === y ? r.personID : r.email, r.approved])).toEqual([
          [x, '1'],
          [fresh, '1'],
          [y, '0'],
        ]);
        expect(rows[1].name).toBe('Csv, Person');

        const b = await activity();
        const stranger = await attendee(eventB);
        writeFileSync(join(dir, `bad-${n}.csv`), `personID,email\n${x},\n${stranger},\n`);
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: b }, body: { path: `bad-${n}.csv` } }, 404, /path row 3: person not found/); // prettier-ignore
        writeFileSync(join(dir, `bad-mail-${n}.csv`), `email\nnot-an-email\n`);
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: b }, body: { path: `bad-mail-${n}.csv` } }, 400, /path row 2: needs a personID or an email/); // prettier-ignore
        writeFileSync(join(dir, `empty-${n}.csv`), `personID\n`);
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: b }, body: { path: `empty-${n}.csv` } }, 400, /path has no rows/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: b }, body: { path: '../x.csv' } }, 400, /inside the import folder/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.attendee, query: { activityID: b }, body: { path: `ok-${n}.csv` } }, 403, /only event admins may/); // prettier-ignore
        expect(await stored(b)).toEqual({});
      });
    });

    describe('activity.person.bind by JSON content over an event (admin)', () => {
      it('binds pairs across activities of the event in one call', async () => {
        const a = await activity();
        const b = await activity({ capacity: 1 });
        const [x, y] = await people(2);
        const content = JSON.stringify([
          { activityID: Number(a), personID: Number(x) },
          { activityID: b, personID: y },
          { activityID: Number(b), personID: Number(x) },
          { activityID: Number(a), personID: Number(x) },
        ]);
        const rows = await c.ok('activity.person.bind', { token: w.adminA, query: { eventID: eventA, bypassWebhook: 1 }, body: { content } }); // prettier-ignore
        expect(rows.map((r) => [r.activityID, r.personID, r.approved])).toEqual([
          [a, x, '1'],
          [b, y, '1'],
          [b, x, '0'],
        ]);
      });

      it('refuses the whole list when one item fails, naming the item', async () => {
        const a = await activity({ capacity: 1, oversize: 1 });
        const other = await activity({ eventID: eventB });
        const [x, y] = await people(2);
        const stranger = await attendee(eventB);
        const send = (items: unknown, token = w.adminA, query: Q = { eventID: eventA }) =>
          c.call('activity.person.bind', { token, query, body: { content: JSON.stringify(items) } });
        const fail = async (items: unknown, status: number, message: RegExp, token = w.adminA, query?: Q) => {
          const r = await send(items, token, query);
          expect(r.text).toMatch(new RegExp(`^${status} `));
          expect(r.text).toMatch(message);
        };
        await fail([{ activityID: a, personID: x }, { activityID: a, personID: y }], 409, /^409 content item 2: activity is full$/); // prettier-ignore
        await fail([{ activityID: a, personID: x }, { activityID: other, personID: x }], 404, /content item 2: activity not found/); // prettier-ignore
        await fail([{ activityID: a, personID: x }, { activityID: a, personID: stranger }], 404, /content item 2: person not found/); // prettier-ignore
        await fail([{ activityID: 999999, personID: x }], 404, /content item 1: activity not found/);
        // The other event's own admin cannot use it either: the list names activities of event A.
        await fail([{ activityID: a, personID: x }], 404, /activity not found/, w.adminB, { eventID: eventB });
        await fail([{ activityID: a, personID: x }], 403, /only event admins may/, w.attendee);
        await fail([], 400, /at least one/);
        await fail({ activityID: a, personID: x }, 400, /^400 content must be a list/);
        await fail([{ activityID: a }], 400, /item 1 personID/);
        await fail([{ activityID: -1, personID: x }], 400, /content must be a list/);
        await fail([{ activityID: 1.5, personID: x }], 400, /content must be a list/);
        await fail(
          Array.from({ length: 1001 }, () => ({ activityID: a, personID: x })),
          400,
          /at most 1000 items/,
        );
        await fail([{ activityID: a, personID: x }], 400, /activityID cannot be combined with content/, w.adminA, { eventID: eventA, activityID: a }); // prettier-ignore
        await fail([{ activityID: a, personID: x }], 400, /activityID cannot be combined with content/, w.adminA, { activityID: a }); // prettier-ignore
        const bad = await c.call('activity.person.bind', { token: w.adminA, query: { eventID: eventA }, body: { content: '[{"activityID":' } }); // prettier-ignore
        expect(bad.text).toMatch(/^400 content must be JSON/);
        await c.fail('activity.person.bind', { token: w.adminA, query: { eventID: eventA } }, 400, /one of these is required/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { eventID: 999999 }, body: { content: '[]' } }, 404, /event not found/); // prettier-ignore
        expect(await stored(a)).toEqual({});
      });
    });

    describe('activity.person.bind by the token’s person (own form)', () => {
      it('any member binds themself, idempotently; bypassWebhook is refused', async () => {
        const a = await activity({ capacity: 1 });
        const [row] = await c.ok('activity.person.bind', { token: w.attendee, query: { activityID: a } });
        expect(row).toMatchObject({ personID: String(w.attendeeID), approved: '1', name: 'attendee' });
        const [again] = await c.ok('activity.person.bind', { token: w.attendeeSystem, query: { activityID: a } });
        expect(again).toEqual(row);
        const [staff] = await c.ok('activity.person.bind', { token: w.staff, query: { activityID: a } });
        expect(staff).toMatchObject({ approved: '0', position: '1' });
        await c.fail('activity.person.bind', { token: m1.token, query: { activityID: a, bypassWebhook: 1 } }, 400, /bypassWebhook cannot be used/); // prettier-ignore
        expect(Object.keys(await stored(a))).toHaveLength(2);
      });

      it('refuses a company admin who is not an attendee (403), and callers without a relation (404, 401)', async () => {
        const a = await activity();
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a } }, 403, /only attendees of the event/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminB, query: { activityID: a } }, 404);
        await c.fail('activity.person.bind', { query: { activityID: a } }, 401);
        expect(await stored(a)).toEqual({});
      });
    });

    describe('chains and lists', () => {
      it('a chain admits at most maxPerPerson of its activities per person (409 naming it)', async () => {
        const [a, b, d] = [await activity(), await activity({ capacity: 1 }), await activity()];
        const chainID = await chain([a, b], undefined, 'Morning track');
        const [x, y] = await people(2);
        await bindOk(b, y); // b is full: x will wait there, and waiting counts too
        await bindOk(b, x);
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: x } }, 409, new RegExp(`chain "Morning track" \\(chainID ${chainID}\\), which allows at most 1`)); // prettier-ignore
        // Own form: "you".
        await bindOk(b, m2.id);
        await c.fail('activity.person.bind', { token: m2.token, query: { activityID: a } }, 409, /^409 you are already enrolled in 1 of the activities of chain "Morning track"/); // prettier-ignore
        // After leaving b, a is allowed; an activity outside the chain always was.
        await dismissOk(b, x);
        expect((await bindOk(a, x)).approved).toBe('1');
        expect((await bindOk(d, x)).approved).toBe('1');
        // A chain with maxPerPerson 2 admits two.
        const [e, f, g] = [await activity(), await activity(), await activity()];
        await chain([e, f, g], 2, 'Pick two');
        await bindOk(e, y);
        await bindOk(f, y);
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: g, personID: y } }, 409, /chain "Pick two".*at most 2/); // prettier-ignore
      });

      it('an activity limited to lists admits their members only (403 own form, 409 for admins)', async () => {
        const a = await activity();
        const [inList, outside] = await people(2);
        await list(a, [inList, m1.id]);
        await list(a, []);
        expect((await bindOk(a, inList)).approved).toBe('1');
        const [mine] = await c.ok('activity.person.bind', { token: m1.token, query: { activityID: a } });
        expect(mine.approved).toBe('1');
        await c.fail('activity.person.bind', { token: m2.token, query: { activityID: a } }, 403, /limited to the people of its lists/); // prettier-ignore
        await c.fail('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: outside } }, 409, new RegExp(`person ${outside} is in none of the lists`)); // prettier-ignore
        expect(Object.keys(await stored(a)).sort()).toEqual([inList, m1.id].sort());
      });
    });

    describe('lockOperations', () => {
      it('members cannot bind, dismiss or reprioritize themselves; admins still can', async () => {
        const a = await activity({ lockOperations: 1 });
        await c.fail('activity.person.bind', { token: m1.token, query: { activityID: a } }, 403, /locked/);
        await bindOk(a, m1.id);
        await c.fail('activity.person.dismiss', { token: m1.token, query: { activityID: a } }, 403, /locked/);
        await c.fail('activity.person.operate', { token: m1.token, query: { activityID: a, key: 'priori' }, body: { value: 1 } }, 403, /locked/); // prettier-ignore
        expect((await operate(a, 'priori', 1, m1.id)).status).toBe(200);
        expect(await dismissOk(a, m1.id)).toMatchObject({ dismissed: '1' });
        expect(await stored(a)).toEqual({});
        // An admin's own forms are not locked either.
        const [own] = await c.ok('activity.person.bind', { token: w.eventAdminSystem, query: { activityID: a } });
        expect(own.approved).toBe('1');
        const [left] = await c.ok('activity.person.dismiss', { token: w.eventAdminSystem, query: { activityID: a } });
        expect(left.dismissed).toBe('1');
        await c.fail('activity.person.bind', { token: w.eventAdminEventScope, query: { activityID: a } }, 403, /locked/); // prettier-ignore
      });
    });

    describe('activity.person.operate', () => {
      it('admins set approved, paid, present and priori of an attendee', async () => {
        const a = await activity({ capacity: 1 });
        const [x, y, z] = await people(3);
        for (const v of [x, y, z]) await bindOk(a, v);
        for (const key of ['paid', 'present']) {
          const [row] = (await operate(a, key, 1, x)).data as Record<string, string>[];
          expect(row[key]).toBe('1');
        }
        // approved 1 by an admin may go beyond the capacity.
        const over = await operate(a, 'approved', 1, z);
        expect(over.data[0]).toMatchObject({ approved: '1', position: '0' });
        expect(await stored(a)).toMatchObject({ [x]: [1, 0], [z]: [1, 0], [y]: [0, 1] });
        // approved 0 moves the person to the waiting list; no seat is free (2 approved > capacity 1).
        await operate(a, 'approved', 0, x);
        expect(await stored(a)).toEqual({ [z]: [1, 0], [x]: [0, 1], [y]: [0, 2] });
        await operate(a, 'approved', 0, z);
        // z's seat goes to the first one waiting (x), z waits behind in enrollment order.
        expect(await stored(a)).toEqual({ [x]: [1, 0], [y]: [0, 1], [z]: [0, 2] });
        expect(await calculate(a)).toMatchObject({ approved: '1', waiting: '2', paid: '1', present: '1' });
        const [same] = (await operate(a, 'paid', 1, x)).data as Record<string, string>[];
        expect(same.paid).toBe('1');
      });

      it('the own form sets priori only; other people need an admin', async () => {
        const a = await activity({ capacity: 1 });
        await bindOk(a, m2.id);
        await bindOk(a, m1.id);
        const own = await c.ok('activity.person.operate', { token: m1.token, query: { activityID: a, key: 'priori' }, body: { value: 1 } }); // prettier-ignore
        expect(own[0]).toMatchObject({ personID: m1.id, priori: '1', position: '1' });
        // Naming oneself is the own form too.
        const named = await c.ok('activity.person.operate', { token: m1.token, query: { activityID: a, key: 'priori', personID: m1.id }, body: { value: 0 } }); // prettier-ignore
        expect(named[0].priori).toBe('0');
        await c.fail('activity.person.operate', { token: m1.token, query: { activityID: a, key: 'approved' }, body: { value: 1 } }, 400, /key must be priori/); // prettier-ignore
        await c.fail('activity.person.operate', { token: m1.token, query: { activityID: a, key: 'approved', personID: m1.id }, body: { value: 1 } }, 400, /key must be priori/); // prettier-ignore
        await c.fail('activity.person.operate', { token: m1.token, query: { activityID: a, key: 'priori', personID: m2.id }, body: { value: 1 } }, 403, /only event admins may/); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.staff, query: { activityID: a, key: 'present', personID: m1.id }, body: { value: 1 } }, 403, /only event admins may/); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.adminA, query: { activityID: a, key: 'paid' }, body: { value: 1 } }, 400, /key paid needs personID/); // prettier-ignore
        expect(await stored(a)).toEqual({ [m2.id]: [1, 0], [m1.id]: [0, 1] });
      });

      it('refuses bad keys and values (400), people not enrolled or not attendees (404), outsiders', async () => {
        const a = await activity();
        const x = await attendee();
        await bindOk(a, x);
        await c.fail('activity.person.operate', { token: w.adminA, query: { activityID: a, key: 'rating', personID: x }, body: { value: 1 } }, 400, /key rating cannot be edited here/); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.adminA, query: { activityID: a, key: 'paid', personID: x }, body: { value: 2 } }, 400, /^400 value must be 0 or 1/); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.adminA, query: { activityID: a, key: 'paid', personID: x }, body: {} }, 400, /value cannot be empty/); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.adminA, query: { activityID: a, key: 'paid', personID: m1.id }, body: { value: 1 } }, 404, /enrollment/); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.adminA, query: { activityID: a, key: 'paid', personID: await attendee(eventB) }, body: { value: 1 } }, 404, /person not found/); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.adminB, query: { activityID: a, key: 'paid', personID: x }, body: { value: 1 } }, 404); // prettier-ignore
        await c.fail('activity.person.operate', { query: { activityID: a, key: 'paid', personID: x }, body: { value: 1 } }, 401); // prettier-ignore
        await c.fail('activity.person.operate', { token: w.adminA, method: 'GET', query: { activityID: a, key: 'paid', personID: x } }, 405); // prettier-ignore
      });
    });

    describe('activity.person.dismiss', () => {
      it('admins dismiss by personID; members dismiss themselves', async () => {
        const a = await activity({ capacity: 1 });
        await bindOk(a, m1.id);
        await bindOk(a, m2.id);
        await c.fail('activity.person.dismiss', { token: m2.token, query: { activityID: a, personID: m1.id } }, 403, /only event admins may/); // prettier-ignore
        const [mine] = await c.ok('activity.person.dismiss', { token: m1.token, query: { activityID: a } });
        expect(mine).toMatchObject({ personID: m1.id, approved: '-1', dismissed: '1' });
        expect(await stored(a)).toEqual({ [m2.id]: [1, 0] });
        await c.fail('activity.person.dismiss', { token: m2.token, query: { activityID: a, bypassWebhook: 1 } }, 400, /bypassWebhook cannot be used/); // prettier-ignore
        const [byAdmin] = await c.ok('activity.person.dismiss', { token: w.adminA, query: { activityID: a, personID: m2.id, bypassWebhook: 1 } }); // prettier-ignore
        expect(byAdmin).toMatchObject({ dismissed: '1', approved: '-1' });
        expect(await stored(a)).toEqual({});
        await c.fail('activity.person.dismiss', { token: w.adminA, query: { activityID: a, personID: await attendee(eventB) } }, 404, /person not found/); // prettier-ignore
        await c.fail('activity.person.dismiss', { token: w.adminA, query: { activityID: a } }, 403, /only attendees/);
        await c.fail('activity.person.dismiss', { token: w.adminB, query: { activityID: a, personID: m1.id } }, 404);
        await c.fail('activity.person.dismiss', { query: { activityID: a, personID: m1.id } }, 401);
        await c.fail('activity.person.dismiss', { token: w.adminA, query: { activityID: 999999, personID: m1.id } }, 404, /activity not found/); // prettier-ignore
      });

      it('dismisses a JSON list over the event, all or nothing', async () => {
        const a = await activity({ capacity: 1 });
        const b = await activity();
        const other = await activity({ eventID: eventB });
        const [x, y, z] = await people(3);
        await bindOk(a, x);
        await bindOk(a, y);
        await bindOk(b, x);
        const send = (items: unknown, token = w.adminA) =>
          c.call('activity.person.dismiss', { token, query: { eventID: eventA }, body: { content: JSON.stringify(items) } }); // prettier-ignore
        expect((await send([{ activityID: a, personID: x }, { activityID: other, personID: x }])).text).toMatch(/^404 content item 2: activity not found/); // prettier-ignore
        expect((await send([{ activityID: a, personID: x }, { activityID: a, personID: await attendee(eventB) }])).text).toMatch(/^404 content item 2: person not found/); // prettier-ignore
        expect((await send([{ activityID: a, personID: x }], w.attendee)).text).toMatch(/^403 only event admins may/);
        const bad = await c.call('activity.person.dismiss', { token: w.adminA, query: { eventID: eventA }, body: { content: 'nope' } }); // prettier-ignore
        expect(bad.text).toMatch(/^400 content must be JSON/);
        expect(await stored(a)).toEqual({ [x]: [1, 0], [y]: [0, 1] });

        const r = await send([{ activityID: a, personID: x }, { activityID: b, personID: x }, { activityID: b, personID: z }]); // prettier-ignore
        expect(r.status).toBe(200);
        expect(r.data.map((d) => [d.activityID, d.personID, d.dismissed])).toEqual([
          [a, x, '1'],
          [b, x, '1'],
          [b, z, '0'],
        ]);
        expect(await stored(a)).toEqual({ [y]: [1, 0] });
        expect(await stored(b)).toEqual({});
      });
    });

    describe('activity.person.find', () => {
      let a: string;
      let ids: string[];
      beforeAll(async () => {
        a = await activity({ capacity: 2 });
        ids = [
          await attendee(eventA, 'Zoe Zed'),
          await attendee(eventA, 'Amy 100%'),
          await attendee(eventA, 'Bob_Builder'),
          await attendee(eventA, 'Carl Case'),
        ];
        for (const x of ids) await bindOk(a, x);
        await operate(a, 'paid', 1, ids[0]);
        await operate(a, 'paid', 1, ids[2]);
        await operate(a, 'present', 1, ids[0]);
      });
      const find = (query: Q, token = w.adminA) =>
        c.ok('activity.person.find', { token, query: { activityID: a, ...query } });
      const idsIn = (rows: Record<string, string>[]) => rows.map((r) => r.personID);

      it('lists by selection (combined with |), approved first then the waiting list', async () => {
        const all = await find({ selection: 'all' });
        expect(idsIn(all)).toEqual(ids);
        expect(Object.keys(all[0]).sort()).toEqual([...FIELDS].sort());
        expect(idsIn(await find({ selection: 'approved' }))).toEqual([ids[0], ids[1]]);
        expect(idsIn(await find({ selection: 'denied' }))).toEqual([ids[2], ids[3]]);
        expect(idsIn(await find({ selection: 'paid' }))).toEqual([ids[0], ids[2]]);
        expect(idsIn(await find({ selection: 'present' }))).toEqual([ids[0]]);
        expect(idsIn(await find({ selection: 'denied|paid' }))).toEqual([ids[2]]);
      });

      it('orders by a column, searches name and e-mail, paginates', async () => {
        expect(idsIn(await find({ selection: 'all', order: 'name' }))).toEqual([ids[1], ids[2], ids[3], ids[0]]);
        expect(idsIn(await find({ selection: 'all', order: 'name', orderOrientation: 'DESC' }))).toEqual([ids[0], ids[3], ids[2], ids[1]]); // prettier-ignore
        expect(idsIn(await find({ selection: 'all', order: 'paid', orderOrientation: 'DESC' }))).toEqual([ids[0], ids[2], ids[1], ids[3]]); // prettier-ignore
        expect(idsIn(await find({ selection: 'all', query: 'ZOE' }))).toEqual([ids[0]]);
        expect(idsIn(await find({ selection: 'all', query: '100%' }))).toEqual([ids[1]]);
        expect(idsIn(await find({ selection: 'all', query: '_' }))).toEqual([ids[2]]);
        expect(idsIn(await find({ selection: 'all', query: '@podium' }))).toEqual(ids);
        const page = await c.call('activity.person.find', { token: w.adminA, query: { activityID: a, selection: 'all', limit: 2, offset: 1, paginated: 1 } }); // prettier-ignore
        expect(page.total).toBe('4');
        expect(page.data.map((r) => r.personID)).toEqual([ids[1], ids[2]]);
      });

      it('is for event admins and staff', async () => {
        expect(idsIn(await find({ selection: 'all' }, w.staff))).toEqual(ids);
        expect(idsIn(await find({ selection: 'all' }, w.eventAdminSystem))).toEqual(ids);
        for (const token of [w.attendee, m1.token, w.eventAdminEventScope])
          await c.fail('activity.person.find', { token, query: { activityID: a, selection: 'all' } }, 403);
        await c.fail('activity.person.find', { token: w.adminB, query: { activityID: a, selection: 'all' } }, 404);
        await c.fail('activity.person.find', { query: { activityID: a, selection: 'all' } }, 401);
        await c.fail('activity.person.find', { token: w.adminA, query: { activityID: 999999, selection: 'all' } }, 404); // prettier-ignore
        await c.fail('activity.person.find', { token: w.adminA, query: { activityID: a, selection: 'enrolled' } }, 400, /^400 selection/); // prettier-ignore
        await c.fail('activity.person.find', { token: w.adminA, query: { activityID: a, selection: 'all', order: 'passwordHash' } }, 400, /^400 order must be one of/); // prettier-ignore
        await c.fail('activity.person.find', { token: w.adminA, query: { activityID: a } }, 400, /selection cannot be empty/); // prettier-ignore
      });
    });

    describe('activity.person.get', () => {
      it('answers the token’s own enrollment, or approved -1 when not enrolled', async () => {
        const a = await activity();
        const [none] = await c.ok('activity.person.get', { token: m1.token, query: { activityID: a } });
        expect(none).toMatchObject({ activityID: a, personID: m1.id, approved: '-1', enrollmentID: '' });
        expect(Object.keys(none).sort()).toEqual([...FIELDS].sort());
        const bound = await bindOk(a, m1.id);
        const [mine] = await c.ok('activity.person.get', { token: m1.token, query: { activityID: a } });
        expect(mine).toEqual(bound);
        const [self] = await c.ok('activity.person.get', { token: m1.token, query: { activityID: a, personID: m1.id } }); // prettier-ignore
        expect(self).toEqual(bound);
      });

      it('answers another person for admins and staff only', async () => {
        const a = await activity();
        const bound = await bindOk(a, m1.id);
        for (const token of [w.adminA, w.staff, w.eventAdminSystem])
          expect((await c.ok('activity.person.get', { token, query: { activityID: a, personID: m1.id } }))[0]).toEqual(bound); // prettier-ignore
        const [absent] = await c.ok('activity.person.get', { token: w.adminA, query: { activityID: a, personID: m2.id } }); // prettier-ignore
        expect(absent).toMatchObject({ personID: m2.id, approved: '-1' });
        await c.fail('activity.person.get', { token: m2.token, query: { activityID: a, personID: m1.id } }, 403, /only event admins and staff/); // prettier-ignore
        await c.fail('activity.person.get', { token: w.adminA, query: { activityID: a, personID: await attendee(eventB) } }, 404, /person not found/); // prettier-ignore
        await c.fail('activity.person.get', { token: w.adminB, query: { activityID: a } }, 404);
        await c.fail('activity.person.get', { query: { activityID: a } }, 401);
        await c.fail('activity.person.get', { token: w.adminA, query: {} }, 400, /activityID cannot be empty/);
      });
    });

    describe('activity.person.calculate', () => {
      it('counts participants for any member; outsiders get 404', async () => {
        const a = await activity({ capacity: 3, oversize: 5 });
        const [x, y, z, v] = await people(4);
        for (const id of [x, y, z, v]) await bindOk(a, id);
        await operate(a, 'present', 1, x);
        const row = await calculate(a, m1.token);
        expect(Object.keys(row).sort()).toEqual([...CALCULATE_FIELDS].sort());
        expect(row).toEqual({
          activityID: a, capacity: '3', oversize: '5', approved: '3', waiting: '1', attending: '4', paid: '0',
          present: '1', remaining: '0', openings: '1', waitingList: '1', full: '0',
        }); // prettier-ignore
        expect(await calculate(a, w.attendee)).toEqual(row);
        await c.fail('activity.person.calculate', { token: w.adminB, query: { activityID: a } }, 404);
        await c.fail('activity.person.calculate', { query: { activityID: a } }, 401);
        await c.fail('activity.person.calculate', { token: w.adminA, query: { activityID: 999999 } }, 404, /activity not found/); // prettier-ignore
      });
    });

    describe('concurrency', () => {
      it('30 simultaneous binds to capacity 5 / oversize 10: 5 approved, 5 waiting, 20 refused', async () => {
        const a = await activity({ capacity: 5, oversize: 10 });
        const list = await people(30);
        const replies = await Promise.all(
          list.map((personID) =>
            c.call('activity.person.bind', { token: w.adminA, query: { activityID: a, personID } }),
          ),
        );
        const statuses = replies.map((r) => r.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(10);
        expect(replies.filter((r) => r.status === 409 && r.text === '409 activity is full')).toHaveLength(20);
        const rows = Object.values(await stored(a));
        expect(rows.filter(([ap]) => ap === 1)).toHaveLength(5);
        expect(
          rows
            .filter(([ap]) => ap === 0)
            .map(([, pos]) => pos)
            .sort((x, y) => x - y),
        ).toEqual([1, 2, 3, 4, 5]);
        expect(await calculate(a)).toMatchObject({ approved: '5', waiting: '5', full: '1' });
      });

      it('simultaneous binds of one person make one enrollment', async () => {
        const a = await activity();
        const x = await attendee();
        const replies = await Promise.all(
          Array.from({ length: 6 }, () => c.call('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: x } })), // prettier-ignore
        );
        expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
        expect(new Set(replies.map((r) => r.data[0].enrollmentID)).size).toBe(1);
        expect(Object.keys(await stored(a))).toEqual([x]);
      });
    });

    describe('helpers for other operations', () => {
      it('activity.edit of capacity gives the new seats to the waiting list, first in the queue first', async () => {
        const a = await activity({ capacity: 1 });
        const [x, y, z] = await people(3);
        for (const v of [x, y, z]) await bindOk(a, v);
        await c.ok('activity.edit', { token: w.adminA, query: { activityID: a, key: 'capacity' }, body: { value: 2 } });
        expect(await stored(a)).toEqual({ [x]: [1, 0], [y]: [1, 0], [z]: [0, 1] });
      });

      it('dismissFromEvent leaves every activity of the event, promoting the waiting lists', async () => {
        const [a, b] = [await activity({ capacity: 1 }), await activity()];
        const [x, y] = await people(2);
        await bindOk(a, x);
        await bindOk(a, y);
        await bindOk(b, x);
        await p.db.transaction().execute((trx) => dismissFromEvent(trx, eventA, Number(x)));
        expect(await stored(a)).toEqual({ [y]: [1, 0] });
        expect(await stored(b)).toEqual({});
      });
    });

    it('sandbox=1 answers the bind and keeps nothing', async () => {
      const a = await activity();
      const [row] = await c.ok('activity.person.bind', { token: w.adminA, query: { activityID: a, personID: m1.id, sandbox: 1 } }); // prettier-ignore
      expect(row.approved).toBe('1');
      expect(await stored(a)).toEqual({});
    });
  });
});
