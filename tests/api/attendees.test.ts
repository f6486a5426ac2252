// Attendee operations over real HTTP, in both call styles and on both stores (spec §2.3, §4.4, §5.8–5.9, §8):
// event.person.bind, event.person.operate, event.person.find, event.person.get, event.person.print, event.person.dismiss.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, nowSeconds, type Client } from '../helpers/operations.ts';

/** Every field of spec §2.3. */
const ATTENDEE_FIELDS = `username socialAID socialBID socialCID email telephone qrCode ebQrCode nfc eventID personID
  firstName lastName name personName role company summary image headline personHeadline city socialA socialB socialC
  socialD website position level ebUserID mkUserID approved paid rsvp present message private meetingQuotaID
  meetingAutoConfirm engagement language personLanguage origin crmAID crmAType crmBID enrollmentDate updatedDate
  meetingQuotaName meetingQuotaAmount device downloaded favorite ally isSponsor prints profileID ticketID
  assistantEmail ticketName ticketEntrance tags speakerID`.split(/\s+/);
const EVENT_PASSWORD = `${PASSWORD} event`;
const long = (n: number) => 'x'.repeat(n);

describe.each(STORES)('attendee operations on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let eventA: string;
    /** Tags: attendee kind of event A (t1, t2), activity kind of event A, attendee kind of event B. */
    const tag = { t1: 0, t2: 0, activity: 0, otherEvent: 0 };
    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
      eventA = w.eventA.eventID;
      const mkTag = async (eventID: string, name: string, kind: string) =>
        (
          await p.db
            .insertInto('tag')
            .values({ companyID: Number(w.companyA.companyID), eventID: Number(eventID), name, kind })
            .returning('tagID')
            .executeTakeFirstOrThrow()
        ).tagID;
      tag.t1 = await mkTag(eventA, 'Alpha', 'attendee');
      tag.t2 = await mkTag(eventA, 'Beta', 'attendee');
      tag.activity = await mkTag(eventA, 'Track', 'activity');
      tag.otherEvent = await mkTag(w.eventB.eventID, 'Other', 'attendee');
    });
    afterAll(() => p?.close());

    const bind = (body: Record<string, string | number>, token = w.adminA, eventID = eventA) =>
      c.call('event.person.bind', { token, query: { eventID }, body });
    const bound = async (body: Record<string, string | number>, token = w.adminA, eventID = eventA) => {
      const r = await bind(body, token, eventID);
      expect(r.status, r.text).toBe(200);
      return r.data[0] as Record<string, string> & { tags: Record<string, string>[] };
    };
    const operate = (
      key: string,
      value: string | number,
      personID?: string | number,
      token = w.adminA,
      eventID = eventA,
    ) =>
      c.call('event.person.operate', {
        token,
        query: { eventID, key, ...(personID !== undefined ? { personID } : {}) },
        body: { value },
      });
    const get = async (personID: string | number, token = w.adminA, eventID = eventA) =>
      (await c.ok('event.person.get', { token, query: { eventID, personID } }))[0] as Record<string, unknown>;

    describe('event.person.bind', () => {
      it('creates an attendee with every §2.3 field; the e-mail defaults to an e-mail username', async () => {
        const before = nowSeconds();
        const row = await bound({
          name: '  Ada   Lovelace ',
          username: 'Ada@Example.com',
          role: 'Engineer',
          company: 'Analytical',
          telephone: '+351 900 000 000',
          origin: 'import-2024',
        });
        expect(Object.keys(row)).toEqual(expect.arrayContaining(ATTENDEE_FIELDS));
        expect(row).toMatchObject({
          username: 'ada@example.com',
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          personName: 'Ada Lovelace',
          firstName: 'Ada',
          lastName: 'Lovelace',
          role: 'Engineer',
          company: 'Analytical',
          telephone: '+351 900 000 000',
          origin: 'import-2024',
          eventID: eventA,
          level: '1',
          approved: '1',
          rsvp: '-1',
          present: '0',
          private: '0',
          prints: '0',
          headline: 'Engineer, Analytical',
          personHeadline: '',
          language: '',
          personLanguage: 'en',
          ebQrCode: '',
          device: '',
          favorite: '0',
          speakerID: '',
          tags: [],
        });
        expect(row.qrCode).toMatch(/^[\w-]{24}$/);
        expect(Number(row.enrollmentDate)).toBeGreaterThanOrEqual(before);
        expect(row.updatedDate).toBe(row.enrollmentDate);
        // Read back: the same record.
        expect(await get(row.personID)).toMatchObject({ ...row, feedbacks: [] });
      });

      it('keeps the e-mail empty for a username that is not an e-mail, and takes an explicit one', async () => {
        expect(await bound({ name: 'No Mail', username: 'nomail' })).toMatchObject({ username: 'nomail', email: '' });
        expect(
          await bound({ name: 'Two Mails', username: 'two@example.com', email: 'Other@Example.com' }),
        ).toMatchObject({ username: 'two@example.com', email: 'other@example.com' });
      });

      it('createSpeaker=1 adds a speaker of the event linked to the person, with the name', async () => {
        const row = await bound({ name: 'Grace Hopper', username: 'grace@example.com', createSpeaker: 1 });
        expect(row.speakerID).toMatch(/^\d+$/);
        const speaker = await p.db
          .selectFrom('speaker')
          .selectAll()
          .where('speakerID', '=', Number(row.speakerID))
          .executeTakeFirstOrThrow();
        expect(speaker).toMatchObject({
          eventID: Number(eventA),
          personID: Number(row.personID),
          name: 'Grace Hopper',
        });
        const none = await bound({ name: 'Not Speaker', username: 'notspeaker@example.com', createSpeaker: 0 });
        expect(none.speakerID).toBe('');
      });

      it('enrolls an existing person with what was sent, neither showing nor changing their own profile; an attendee already there → 409', async () => {
        // A person who exists already (e.g. known from another company) and is no attendee of event A.
        const personID = await p.person('existing@example.com', PASSWORD);
        await p.db.updateTable('person').set({ role: 'Their own role' }).where('personID', '=', personID).execute();
        const before = await p.db.selectFrom('person').selectAll().where('personID', '=', personID).executeTakeFirst();
        const row = await bound({ name: 'Someone Else', username: 'EXISTING@example.com', role: 'Changed' });
        expect(row).toMatchObject({
          personID: String(personID),
          username: 'existing@example.com',
          name: 'Someone Else',
          role: 'Changed',
        });
        expect(row.email).toBe('existing@example.com');
        expect(await p.db.selectFrom('person').selectAll().where('personID', '=', personID).executeTakeFirst()).toEqual(
          before,
        );
        await c.fail(
          'event.person.bind',
          { token: w.adminA, query: { eventID: eventA }, body: { name: 'Again', username: 'existing@example.com' } },
          409,
          /already an attendee/,
        );
        await c.fail(
          'event.person.bind',
          { token: w.adminA, query: { eventID: eventA }, body: { name: 'Again', username: 'attendee@podium.test' } },
          409,
        );
      });

      it('two concurrent binds of one new username: one attendee, the other call 409', async () => {
        const body = { name: 'Racer', username: 'racer@example.com' };
        const answers = await Promise.all([bind(body), bind(body), bind(body)]);
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
        const rows = await p.db
          .selectFrom('person')
          .innerJoin('eventPerson', 'eventPerson.personID', 'person.personID')
          .select('person.personID')
          .where('person.username', '=', 'racer@example.com')
          .execute();
        expect(rows).toHaveLength(1);
      });

      it('takes a level combining the LEVEL bits and refuses other bits', async () => {
        const row = await bound({ name: 'Lead Staff', username: 'leadstaff@example.com', level: 4 | 64 | 256 });
        expect(row.level).toBe('324');
        for (const level of ['2', '0', '8', '65536', 'admin', '-4'])
          await c.fail(
            'event.person.bind',
            {
              token: w.adminA,
              query: { eventID: eventA },
              body: { name: 'X', username: `lv${level}@example.com`, level },
            },
            400,
            /^400 level /,
          );
      });

      it('refuses missing or invalid parameters, naming them', async () => {
        const call = (body: Record<string, string | number>) => ({ token: w.adminA, query: { eventID: eventA }, body });
        await c.fail('event.person.bind', call({ username: 'x@example.com' }), 400, /^400 name cannot be empty/);
        await c.fail('event.person.bind', call({ name: 'X' }), 400, /^400 username cannot be empty/);
        await c.fail('event.person.bind', call({ name: '   ', username: 'y@example.com' }), 400, /^400 name /);
        await c.fail('event.person.bind', call({ name: 'X', username: 'has space' }), 400, /^400 username /);
        await c.fail('event.person.bind', call({ name: 'X', username: 'z1', email: 'nope' }), 400, /^400 email /);
        await c.fail('event.person.bind', call({ name: 'X', username: 'z2', createSpeaker: 2 }), 400, /createSpeaker/);
        await c.fail('event.person.bind', call({ name: long(201), username: 'z3' }), 400, /^400 name /);
      });

      it('needs an event admin with a system token: 401, 403 for related callers, 404 for others', async () => {
        const body = { name: 'Nobody', username: 'nobody-bind@example.com' };
        await c.fail('event.person.bind', { query: { eventID: eventA }, body }, 401);
        for (const token of [w.attendee, w.attendeeSystem, w.staff, w.eventAdminEventScope, w.externalA])
          await c.fail('event.person.bind', { token, query: { eventID: eventA }, body }, 403);
        await c.fail('event.person.bind', { token: w.adminB, query: { eventID: eventA }, body }, 404, /event/);
        await c.fail('event.person.bind', { token: w.operator, query: { eventID: 999999 }, body }, 404, /event/);
        // An event admin by level (system scope) may.
        expect((await bound(body, w.eventAdminSystem)).username).toBe('nobody-bind@example.com');
      });

      it('sandbox=1 answers the record and stores nothing', async () => {
        const r = await c.call('event.person.bind', {
          token: w.adminA,
          query: { eventID: eventA, sandbox: 1 },
          body: { name: 'Ghost', username: 'ghost@example.com' },
        });
        expect(r.status).toBe(200);
        expect(r.data[0]).toMatchObject({ username: 'ghost@example.com' });
        const stored = await p.db.selectFrom('person').select('personID').where('username', '=', 'ghost@example.com');
        expect(await stored.executeTakeFirst()).toBeUndefined();
      });
    });

    describe('event.person.operate', () => {
      let target: Record<string, string>;
      beforeAll(async () => {
        target = await bound({ name: 'Target Person', username: 'target@example.com' });
      });

      /** [key, value, field read back, expected, invalid value]. Every key of spec §2.3. */
      const EDITS: [string, string, string, string, string][] = [
        ['name', '  Edsger  Wybe Dijkstra ', 'name', 'Edsger Wybe Dijkstra', '   '],
        ['firstName', 'Grace', 'name', 'Grace Wybe Dijkstra', long(101)],
        ['lastName', 'Hopper', 'name', 'Grace Hopper', long(101)],
        ['email', 'Target.New@Example.com', 'email', 'target.new@example.com', 'not-an-email'],
        ['role', 'Admiral', 'role', 'Admiral', long(201)],
        ['company', 'Navy', 'company', 'Navy', long(201)],
        ['summary', 'Wrote the first compiler.', 'summary', 'Wrote the first compiler.', long(5001)],
        ['image', 'https://cdn.example.com/g.png', 'image', 'https://cdn.example.com/g.png', 'javascript:alert(1)'],
        ['telephone', '+1 555 0100', 'telephone', '+1 555 0100', long(51)],
        ['city', 'Arlington', 'city', 'Arlington', long(201)],
        ['socialA', 'https://a.example.com/grace', 'socialA', 'https://a.example.com/grace', '@grace'],
        ['socialB', 'https://b.example.com/grace', 'socialB', 'https://b.example.com/grace', 'grace'],
        ['socialC', 'https://c.example.com/grace', 'socialC', 'https://c.example.com/grace', 'c.example.com'],
        ['socialD', 'https://d.example.com/grace', 'socialD', 'https://d.example.com/grace', 'ftp://d.example.com'],
        ['website', 'https://grace.example.com/', 'website', 'https://grace.example.com/', 'grace.example.com'],
        ['message', '<p>Gate 3</p><script>alert(1)</script>', 'message', '<p>Gate 3</p>', long(5001)],
        ['language', 'PT', 'language', 'pt', 'xx'],
        ['private', '1', 'private', '1', '2'],
        ['rsvp', '1', 'rsvp', '1', '-1'],
        ['present', '1', 'present', '1', 'yes'],
        ['level', '65', 'level', '65', '2'],
        ['nfc', 'BAUGBw==', 'nfc', 'BAUGBw==', 'not base64!'],
        ['ticketID', '7', 'ticketID', '7', 'seven'],
        ['profileID', '3', 'profileID', '3', '-1'],
        ['assistantEmail', 'PA@Example.com', 'assistantEmail', 'pa@example.com', 'pa'],
      ];

      it.each(EDITS)(
        'an admin sets %s, reads it back, and an invalid value is refused',
        async (key, value, field, expected, invalid) => {
          await p.db
            .updateTable('eventPerson')
            .set({ updatedDate: 0 })
            .where('personID', '=', Number(target.personID))
            .execute();
          const r = await operate(key, value, target.personID);
          expect(r.status, r.text).toBe(200);
          expect(r.data[0][field]).toBe(expected);
          const back = await get(target.personID);
          expect(back[field]).toBe(expected);
          expect(Number(back.updatedDate)).toBeGreaterThanOrEqual(nowSeconds() - 60);
          const refused = await operate(key, invalid, target.personID);
          expect(refused.status, refused.text).toBe(400);
          expect(refused.text).toMatch(/^400 value /);
          expect(await get(target.personID)).toEqual(back);
        },
      );

      it('password sets the event-scope password (stored hashed, never answered)', async () => {
        const r = await operate('password', 'a new event password', target.personID);
        expect(r.status, r.text).toBe(200);
        expect(r.text).not.toMatch(/password|scrypt/i);
        const row = await p.db
          .selectFrom('eventPerson')
          .select('passwordHash')
          .where('personID', '=', Number(target.personID))
          .executeTakeFirstOrThrow();
        expect(row.passwordHash).toMatch(/^scrypt\$/);
        const login = await c.ok('person.signIn', {
          query: { username: target.username, eventID: eventA },
          body: { password: 'a new event password' },
        });
        expect(login[0]).toMatchObject({ scope: 'event', targetID: eventA });
        expect((await operate('password', 'short', target.personID)).status).toBe(400);
      });

      it('tagIDs replaces the set with attendee tags of the event; empty clears it', async () => {
        let r = await operate('tagIDs', `${tag.t1},${tag.t2},${tag.t1}`, target.personID);
        expect(r.status, r.text).toBe(200);
        expect(r.data[0].tags).toEqual([
          { tagID: String(tag.t1), name: 'Alpha', color: '' },
          { tagID: String(tag.t2), name: 'Beta', color: '' },
        ]);
        r = await operate('tagIDs', String(tag.t2), target.personID);
        expect((r.data[0].tags as Record<string, string>[]).map((t) => t.tagID)).toEqual([String(tag.t2)]);
        for (const bad of [tag.activity, tag.otherEvent, 999999])
          await c.fail(
            'event.person.operate',
            {
              token: w.adminA,
              query: { eventID: eventA, key: 'tagIDs', personID: target.personID },
              body: { value: `${tag.t1},${bad}` },
            },
            400,
            new RegExp(`tag ${bad} is not an attendee tag`),
          );
        expect(((await get(target.personID)).tags as unknown[]).length).toBe(1);
        await c.fail(
          'event.person.operate',
          {
            token: w.adminA,
            query: { eventID: eventA, key: 'tagIDs', personID: target.personID },
            body: { value: 'a,b' },
          },
          400,
        );
        r = await operate('tagIDs', '', target.personID);
        expect(r.data[0].tags).toEqual([]);
      });

      it('an empty value clears the fields that may be empty and is refused for the others', async () => {
        for (const key of ['role', 'image', 'nfc', 'assistantEmail', 'language', 'message']) {
          const r = await operate(key, '', target.personID);
          expect(r.status, `${key} ${r.text}`).toBe(200);
          expect(r.data[0][key]).toBe('');
        }
        expect((await operate('ticketID', '', target.personID)).data[0].ticketID).toBe('0');
        for (const key of ['name', 'firstName', 'private', 'level', 'password'])
          await c.fail(
            'event.person.operate',
            { token: w.adminA, query: { eventID: eventA, key, personID: target.personID }, body: { value: '' } },
            400,
            /value cannot be empty/,
          );
      });

      it('refuses keys outside the list with 400', async () => {
        for (const key of ['headline', 'qrCode', 'prints', 'passwordHash', 'approved', 'username', '__proto__'])
          await c.fail(
            'event.person.operate',
            { token: w.adminA, query: { eventID: eventA, key, personID: target.personID }, body: { value: '1' } },
            400,
            /cannot be edited here/,
          );
      });

      it('refuses the e-mail and the NFC tag of another attendee of the event (409)', async () => {
        await c.fail(
          'event.person.operate',
          {
            token: w.adminA,
            query: { eventID: eventA, key: 'email', personID: target.personID },
            body: { value: 'attendee@podium.test' },
          },
          409,
        );
        expect((await operate('nfc', 'AAAA', w.attendeeID)).status).toBe(200);
        await c.fail(
          'event.person.operate',
          {
            token: w.adminA,
            query: { eventID: eventA, key: 'nfc', personID: target.personID },
            body: { value: 'AAAA' },
          },
          409,
        );
        expect((await operate('nfc', '', w.attendeeID)).status).toBe(200);
      });

      it("an attendee's own token (event or system scope) edits its own record without personID", async () => {
        let r = await operate('role', 'Own Role', undefined, w.attendee);
        expect(r.status, r.text).toBe(200);
        expect(r.data[0]).toMatchObject({ personID: String(w.attendeeID), role: 'Own Role', level: '1' });
        r = await operate('company', 'Own Co', undefined, w.attendeeSystem);
        expect(r.data[0]).toMatchObject({ personID: String(w.attendeeID), company: 'Own Co' });
        r = await operate('rsvp', '1', w.attendeeID, w.attendee); // its own personID is the same
        expect(r.data[0].rsvp).toBe('1');
        const own = await get(w.attendeeID);
        expect(own).toMatchObject({ role: 'Own Role', company: 'Own Co', rsvp: '1' });
      });

      it('admin-only keys are refused (403) for an attendee’s own token, whatever the value', async () => {
        for (const token of [w.attendee, w.attendeeSystem, w.eventAdminEventScope, w.staff])
          for (const key of ['message', 'level', 'ticketID', 'profileID', 'assistantEmail', 'present']) {
            const r = await c.fail(
              'event.person.operate',
              { token, query: { eventID: eventA, key }, body: { value: key === 'level' ? '4' : '1' } },
              403,
            );
            expect(r.text).toMatch(new RegExp(`key ${key}`));
          }
        expect((await get(w.attendeeID)).level).toBe('1'); // could not raise its own level
        expect((await get(w.attendeeID)).present).toBe('0'); // nor check itself in
      });

      it('another attendee needs an event admin (403); unknown or foreign people → 404', async () => {
        for (const token of [w.attendee, w.attendeeSystem, w.staff, w.eventAdminEventScope])
          await c.fail(
            'event.person.operate',
            { token, query: { eventID: eventA, key: 'role', personID: target.personID }, body: { value: 'x' } },
            403,
          );
        expect((await operate('role', 'By Event Admin', target.personID, w.eventAdminSystem)).status).toBe(200);
        await c.fail(
          'event.person.operate',
          { token: w.adminA, query: { eventID: eventA, key: 'role', personID: 999999 }, body: { value: 'x' } },
          404,
          /person/,
        );
        // A company admin is no attendee: without personID there is no own record.
        await c.fail(
          'event.person.operate',
          { token: w.adminA, query: { eventID: eventA, key: 'role' }, body: { value: 'x' } },
          404,
          /person/,
        );
        await c.fail('event.person.operate', { query: { eventID: eventA, key: 'role' }, body: { value: 'x' } }, 401);
        await c.fail(
          'event.person.operate',
          { token: w.adminB, query: { eventID: eventA, key: 'role', personID: target.personID }, body: { value: 'x' } },
          404,
          /event/,
        );
        await c.fail(
          'event.person.operate',
          { token: w.attendee, query: { eventID: w.eventB.eventID, key: 'role' }, body: { value: 'x' } },
          404,
          /event/,
        );
        await c.fail(
          'event.person.operate',
          { token: w.adminA, query: { eventID: eventA, personID: target.personID }, body: { value: 'x' } },
          400,
          /^400 key cannot be empty/,
        );
      });

      it("a profile edit changes only this event's record: the person and their other events keep theirs", async () => {
        const person = await bound({ name: 'Two Events', username: 'two-events@example.com' });
        await bound({ name: 'Two Events', username: 'two-events@example.com' }, w.adminB, w.eventB.eventID);
        const identity = () =>
          p.db.selectFrom('person').selectAll().where('personID', '=', Number(person.personID)).executeTakeFirst();
        const before = await identity();
        await p.db
          .updateTable('eventPerson')
          .set({ updatedDate: 5 })
          .where('personID', '=', Number(person.personID))
          .execute();
        for (const [key, value] of [
          ['city', 'Porto'],
          ['name', 'Renamed In A'],
          ['email', 'new-a@example.com'],
        ])
          expect((await operate(key, value, person.personID)).status).toBe(200);
        expect(await get(person.personID)).toMatchObject({
          city: 'Porto',
          name: 'Renamed In A',
          email: 'new-a@example.com',
        });
        expect(await get(person.personID, w.adminB, w.eventB.eventID)).toMatchObject({
          city: '',
          name: 'Two Events',
          email: 'two-events@example.com',
        });
        expect(await identity()).toEqual(before);
        // Every key, profile or not, changes only that registration.
        await p.db
          .updateTable('eventPerson')
          .set({ updatedDate: 5 })
          .where('personID', '=', Number(person.personID))
          .execute();
        expect((await operate('present', '1', person.personID)).status).toBe(200);
        const after = await p.db
          .selectFrom('eventPerson')
          .select(['eventID', 'updatedDate', 'present'])
          .where('personID', '=', Number(person.personID))
          .orderBy('eventID')
          .execute();
        expect(after.map((r) => [r.eventID, Number(r.updatedDate) > 5, r.present])).toEqual([
          [Number(eventA), true, 1],
          [Number(w.eventB.eventID), false, 0],
        ]);
      });
    });

    describe('event.person.get', () => {
      it("without personID answers the caller's own full record, with the level its token acts with", async () => {
        const own = await c.ok('event.person.get', { token: w.attendee, query: { eventID: eventA } });
        expect(own).toHaveLength(1);
        expect(Object.keys(own[0])).toEqual(expect.arrayContaining([...ATTENDEE_FIELDS, 'feedbacks', 'timezone']));
        expect(own[0]).toMatchObject({ personID: String(w.attendeeID), username: 'attendee@podium.test', level: '1' });
        // An event-scope token of an event admin acts as a User (spec §5.3): its own record says so.
        const admin = await c.ok('event.person.get', { token: w.eventAdminEventScope, query: { eventID: eventA } });
        expect(admin[0]).toMatchObject({ username: 'event-admin@podium.test', level: '1' });
        const adminSystem = await c.ok('event.person.get', { token: w.eventAdminSystem, query: { eventID: eventA } });
        expect(adminSystem[0].level).toBe('4');
      });

      it('another attendee needs an admin, staff or a Data Collector; 404 for unknown people', async () => {
        await c.fail(
          'event.person.get',
          { token: w.attendee, query: { eventID: eventA, personID: w.attendeeID + 1 } },
          403,
        );
        await c.fail(
          'event.person.get',
          { token: w.externalA, query: { eventID: eventA, personID: w.attendeeID } },
          403,
        );
        expect((await get(w.attendeeID, w.staff)).personID).toBe(String(w.attendeeID));
        expect((await get(w.attendeeID, w.eventAdminSystem)).personID).toBe(String(w.attendeeID));
        await c.fail(
          'event.person.get',
          { token: w.adminA, query: { eventID: eventA, personID: 999999 } },
          404,
          /person/,
        );
        await c.fail('event.person.get', { token: w.adminA, query: { eventID: eventA } }, 404, /person/);
        await c.fail('event.person.get', { query: { eventID: eventA } }, 401);
        await c.fail(
          'event.person.get',
          { token: w.adminB, query: { eventID: eventA, personID: w.attendeeID } },
          404,
          /event/,
        );
        await c.fail('event.person.get', { token: w.adminA, query: { eventID: 'x' } }, 400, /^400 eventID /);
      });
    });

    describe('event.person.dismiss', () => {
      it('removes the attendee with their seats (promoting the waiting list), lists, tags, answers and event tokens', async () => {
        const eventID = Number(eventA);
        const gone = await bound({ name: 'Gone Soon', username: `gone-${style}@podium.test` });
        const next = await bound({ name: 'Next In Line', username: `next-${style}@podium.test` });
        await operate('password', EVENT_PASSWORD, gone.personID);
        await operate('tagIDs', String(tag.t1), gone.personID);
        const eventToken = await p.signIn(`gone-${style}@podium.test`, EVENT_PASSWORD, eventID);
        const { activityID } = await p.db
          .insertInto('activity')
          .values({ eventID, name: 'One seat', capacity: 1 })
          .returning('activityID')
          .executeTakeFirstOrThrow();
        for (const personID of [gone.personID, next.personID])
          await c.ok('activity.person.bind', { token: w.adminA, query: { activityID, personID } });
        const { listID } = await p.db
          .insertInto('list')
          .values({ eventID, name: 'Dismiss list' })
          .returning('listID')
          .executeTakeFirstOrThrow();
        await p.db
          .insertInto('listPerson')
          .values({ listID, personID: Number(gone.personID) })
          .execute();
        const { feedbackID } = await p.db
          .insertInto('feedback')
          .values({ eventID, name: 'Q', type: 'text', options: '[]', apiKey: null })
          .returning('feedbackID')
          .executeTakeFirstOrThrow();
        await p.db.insertInto('feedbackAnswer').values({ feedbackID, eventID, personID: Number(gone.personID), value: 'A' }).execute(); // prettier-ignore

        const [row] = await c.ok('event.person.dismiss', { token: w.adminA, query: { eventID, personID: gone.personID } }); // prettier-ignore
        expect(row.personID).toBe(gone.personID);
        const count = async (table: 'eventPerson' | 'listPerson' | 'eventPersonTag' | 'feedbackAnswer' | 'activityPerson') =>
          (await p.db.selectFrom(table).select('personID').where('personID', '=', Number(gone.personID)).execute()).length; // prettier-ignore
        for (const table of [
          'eventPerson',
          'listPerson',
          'eventPersonTag',
          'feedbackAnswer',
          'activityPerson',
        ] as const)
          expect(await count(table), table).toBe(0);
        const seats = await c.ok('activity.person.find', {
          token: w.adminA,
          query: { activityID, selection: 'approved' },
        });
        expect(seats.map((r) => r.personID)).toEqual([next.personID]);
        await c.fail('event.person.get', { token: eventToken, query: { eventID } }, 401);
        // The person stays: they can be bound again.
        await bound({ name: 'Gone Soon', username: `gone-${style}@podium.test` });
      });

      it('answers 404 for someone who is not an attendee, 403 for non-admins, 404 for other companies', async () => {
        const other = await p.person(`never-${style}@podium.test`, PASSWORD);
        await c.fail(
          'event.person.dismiss',
          { token: w.adminA, query: { eventID: eventA, personID: other } },
          404,
          /person/,
        );
        await c.fail(
          'event.person.dismiss',
          { token: w.staff, query: { eventID: eventA, personID: w.attendeeID } },
          403,
        );
        await c.fail(
          'event.person.dismiss',
          { token: w.adminB, query: { eventID: eventA, personID: w.attendeeID } },
          404,
        );
        await c.fail('event.person.dismiss', { query: { eventID: eventA, personID: w.attendeeID } }, 401);
      });
    });

    describe('event.person.print', () => {
      const print = (personID: string | number, token = w.adminA, method: 'GET' | 'POST' = 'GET') =>
        c.call('event.person.print', { token, method, query: { eventID: eventA, personID } });
      const setLimit = async (value: number | string) => {
        const r = await c.call('event.edit', {
          token: w.adminA,
          query: { eventID: eventA, key: 'printLimit' },
          body: { value },
        });
        expect(r.status, r.text).toBe(200);
      };

      it("counts prints up to the event's printLimit, then 409; 0 means no limit", async () => {
        const person = await bound({ name: 'Label Person', username: 'label@example.com' });
        await setLimit(2);
        const stored = await p.db
          .selectFrom('event')
          .select('printLimit')
          .where('eventID', '=', Number(eventA))
          .executeTakeFirstOrThrow();
        expect(stored.printLimit).toBe(2);
        let r = await print(person.personID);
        expect(r.status, r.text).toBe(200);
        expect(r.data[0]).toMatchObject({ personID: person.personID, prints: '1' });
        r = await print(person.personID, w.staff, 'POST');
        expect(r.status, r.text).toBe(200);
        expect(r.data[0].prints).toBe('2');
        await c.fail(
          'event.person.print',
          { token: w.adminA, query: { eventID: eventA, personID: person.personID } },
          409,
          /print limit/,
        );
        expect((await get(person.personID)).prints).toBe('2');
        await setLimit(0);
        expect((await print(person.personID)).data[0].prints).toBe('3');
        await c.fail(
          'event.edit',
          { token: w.adminA, query: { eventID: eventA, key: 'printLimit' }, body: { value: '-1' } },
          400,
        );
      });

      it('concurrent prints never pass the limit', async () => {
        const person = await bound({ name: 'Race Label', username: 'race-label@example.com' });
        await setLimit(3);
        const answers = await Promise.all(Array.from({ length: 7 }, () => print(person.personID)));
        expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
        expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
        expect((await get(person.personID)).prints).toBe('3');
        await setLimit(0);
      });

      it('needs an admin or staff; unknown attendee → 404; personID required', async () => {
        await c.fail(
          'event.person.print',
          { token: w.attendee, query: { eventID: eventA, personID: w.attendeeID } },
          403,
        );
        await c.fail(
          'event.person.print',
          { token: w.eventAdminEventScope, query: { eventID: eventA, personID: w.attendeeID } },
          403,
        );
        await c.fail('event.person.print', { query: { eventID: eventA, personID: w.attendeeID } }, 401);
        await c.fail(
          'event.person.print',
          { token: w.adminB, query: { eventID: eventA, personID: w.attendeeID } },
          404,
          /event/,
        );
        await c.fail(
          'event.person.print',
          { token: w.adminA, query: { eventID: eventA, personID: 999999 } },
          404,
          /person/,
        );
        await c.fail(
          'event.person.print',
          { token: w.adminA, query: { eventID: eventA } },
          400,
          /^400 personID cannot be empty/,
        );
      });
    });

    describe('event.person.find', () => {
      /** Event F holds four attendees A, B, C, D with known data; tokens: B a system-scope Data Collector, C event-scope staff. */
      let eventF: string;
      const id: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };
      let collector: string;
      let staffF: string;
      let fb1: number;
      let fb2: number;
      let fbOther: number;
      let list: number;
      const tf = { t1: 0, t2: 0 };
      beforeAll(async () => {
        eventF = (
          await c.ok('company.event.bind', {
            token: w.adminA,
            query: { companyID: w.companyA.companyID },
            body: { name: 'Find People', nickname: `find-people-${style}` },
          })
        )[0].eventID;
        const add = (body: Record<string, string | number>) => bound(body, w.adminA, eventF);
        id.A = (
          await add({
            name: 'Alice Admin',
            username: 'alice@example.com',
            level: 4,
            role: 'CEO',
            company: 'Acme',
            origin: 'web',
          })
        ).personID;
        await p.person('bob', PASSWORD); // an existing person: name "bob" (their own, not this event's), no e-mail
        id.B = (await add({ name: 'Bob Collector', username: 'bob', level: 256, createSpeaker: 1 })).personID;
        id.C = (await add({ name: 'Carol Staff', username: 'carol@example.com', level: 64, company: 'Beta' })).personID;
        id.D = (await add({ name: 'Dave Plain', username: 'dave@example.com', level: 129, role: 'Dev' })).personID;
        const set = (who: string, values: Record<string, string | number>) =>
          p.db
            .updateTable('eventPerson')
            .set(values)
            .where('eventID', '=', Number(eventF))
            .where('personID', '=', Number(who))
            .execute();
        await set(id.A, {
          rsvp: 1,
          present: 1,
          prints: 2,
          nfc: 'AQID',
          ticketID: 5,
          assistantEmail: 'pa@example.com',
          profileID: 2,
          updatedDate: 1000,
          message: 'hello',
          language: 'pt',
        });
        await set(id.B, { rsvp: 0, private: 1, approved: -1, updatedDate: 2000 });
        await set(id.C, { approved: 0, updatedDate: 3000 });
        await set(id.D, { private: 1, updatedDate: 4000 });
        await set(id.A, { image: 'https://cdn.example.com/a.png', telephone: '+1 555' });
        await set(id.D, { telephone: '+1 777' });
        const mkTag = async (name: string) =>
          (
            await p.db
              .insertInto('tag')
              .values({ companyID: Number(w.companyA.companyID), eventID: Number(eventF), name, kind: 'attendee' })
              .returning('tagID')
              .executeTakeFirstOrThrow()
          ).tagID;
        tf.t1 = await mkTag('One');
        tf.t2 = await mkTag('Two');
        const tagged: [string, number][] = [
          [id.A, tf.t1],
          [id.B, tf.t2],
          [id.C, tf.t1],
          [id.C, tf.t2],
        ];
        await p.db
          .insertInto('eventPersonTag')
          .values(tagged.map(([who, tagID]) => ({ eventID: Number(eventF), personID: Number(who), tagID })))
          .execute();
        const mkFeedback = async (eventID: string, name: string, position: number) =>
          (
            await p.db
              .insertInto('feedback')
              .values({ eventID: Number(eventID), name, type: 'text', position })
              .returning('feedbackID')
              .executeTakeFirstOrThrow()
          ).feedbackID;
        fb1 = await mkFeedback(eventF, 'Shirt size', 1);
        fb2 = await mkFeedback(eventF, 'Diet', 2);
        fbOther = await mkFeedback(w.eventB.eventID, 'Elsewhere', 1);
        const answers: [string, number, string][] = [
          [id.A, fb1, 'L'],
          [id.B, fb1, 'M'],
          [id.C, fb1, 'l'],
          [id.A, fb2, 'Vegan'],
        ];
        await p.db
          .insertInto('feedbackAnswer')
          .values(
            answers.map(([who, feedbackID, value]) => ({
              feedbackID,
              personID: Number(who),
              eventID: Number(eventF),
              value,
            })),
          )
          .execute();
        list = (
          await p.db
            .insertInto('list')
            .values({ eventID: Number(eventF), name: 'VIP' })
            .returning('listID')
            .executeTakeFirstOrThrow()
        ).listID;
        await p.db
          .insertInto('listPerson')
          .values([
            { listID: list, personID: Number(id.C) },
            { listID: list, personID: Number(id.D) },
          ])
          .execute();
        // B signs in with its system password (downloaded); C gets an event password and signs in (event scope).
        collector = await p.signIn('bob', PASSWORD);
        await p.db
          .updateTable('eventPerson')
          .set({ passwordHash: await hashPassword(EVENT_PASSWORD) })
          .where('eventID', '=', Number(eventF))
          .where('personID', '=', Number(id.C))
          .execute();
        staffF = await p.signIn('carol@example.com', EVENT_PASSWORD, Number(eventF));
      });

      /** The letters of the answer, in answer order. */
      const find = async (query: Record<string, string | number>, token = w.adminA) => {
        const rows = await c.ok('event.person.find', { token, query: { eventID: eventF, ...query } });
        const byID = Object.fromEntries(Object.entries(id).map(([l, v]) => [v, l]));
        return rows.map((r) => byID[r.personID] ?? `?${r.personID}`);
      };
      const sorted = (letters: string[]) => [...letters].sort();

      it.each([
        ['all', 'ABCD'],
        ['admin', 'A'],
        ['not-admin', 'BCD'],
        ['speakers', 'BD'],
        ['permission', 'A'],
        ['collector', 'B'],
        ['tags:T1', 'AC'],
        ['tags:T2', 'BC'],
        ['tags:T1,T2', 'ABC'],
        ['with-email', 'ACD'],
        ['without-email', 'B'],
        ['approved', 'AD'],
        ['denied', 'C'], // registered and not approved (spec §3); B's stored -1 is no registration state
        ['nfc-synced', 'A'],
        ['nfc-not-synced', 'BCD'],
        ['printed', 'A'],
        ['not-printed', 'BCD'],
        ['accepted-rsvp', 'A'],
        ['declined-rsvp', 'B'],
        ['waiting-rsvp', 'CD'],
        ['downloaded', 'BC'],
        ['not-downloaded', 'AD'],
        ['incomplete-profile', 'BCD'],
        ['present', 'A'],
        ['not-present', 'BCD'],
        ['public', 'AC'],
        ['private', 'BD'],
        ['favorited', ''],
        ['not-admin|with-email', 'CD'],
        ['tags:T1|present', 'A'],
        ['private|speakers|not-downloaded', 'D'],
      ])('selection %s', async (selection, expected) => {
        const s = selection.replace('T1', String(tf.t1)).replace('T2', String(tf.t2));
        expect(sorted(await find({ selection: s }))).toEqual([...expected]);
      });

      it('custom-list takes the list in listID (Podium extension)', async () => {
        expect(sorted(await find({ selection: 'custom-list', listID: list }))).toEqual(['C', 'D']);
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'custom-list' } },
          400,
          /listID/,
        );
        const other = (
          await p.db
            .insertInto('list')
            .values({ eventID: Number(eventA), name: 'Other' })
            .returning('listID')
            .executeTakeFirstOrThrow()
        ).listID;
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'custom-list', listID: other } },
          404,
          /list/,
        );
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'favorited', personID: w.attendeeID } },
          404,
          /person/,
        );
        expect(await find({ selection: 'favorited', personID: id.A })).toEqual([]);
      });

      it('virtual, not-virtual and now-virtual follow the event being online and happening now', async () => {
        const edit = async (key: string, value: string | number) =>
          expect(
            (await c.call('event.edit', { token: w.adminA, query: { eventID: eventF, key }, body: { value } })).status,
          ).toBe(200);
        await edit('presential', 0);
        expect(sorted(await find({ selection: 'virtual' }))).toEqual(['A', 'B', 'C', 'D']);
        expect(await find({ selection: 'not-virtual' })).toEqual([]);
        expect(await find({ selection: 'now-virtual' })).toEqual([]); // not happening now
        await edit('dateBegin', nowSeconds() - 3600);
        await edit('dateEnd', nowSeconds() + 3600);
        expect(sorted(await find({ selection: 'now-virtual' }))).toEqual(['A', 'B', 'C', 'D']);
        await edit('presential', 1);
        expect(await find({ selection: 'virtual' })).toEqual([]);
        expect(await find({ selection: 'now-virtual' })).toEqual([]);
        expect(sorted(await find({ selection: 'not-virtual' }))).toEqual(['A', 'B', 'C', 'D']);
      });

      it('refuses an unknown selection and bad tags', async () => {
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'all|nope' } },
          400,
          /^400 selection has an unknown value "nope"/,
        );
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'tags:x' } },
          400,
          /^400 selection /,
        );
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF } },
          400,
          /^400 selection cannot be empty/,
        );
      });

      it.each([
        ['name', 'ALI', 'A'],
        ['name', '%', ''],
        ['username', 'bo', 'B'],
        ['email', 'carol@', 'C'],
        ['role', 'ceo', 'A'],
        ['company', 'acme', 'A'],
        ['assistantEmail', 'PA@', 'A'],
        ['updatedBeforeDate', '2000', 'A'],
        ['updatedAfterDate', '3000', 'CD'],
        ['ticket', '5', 'A'],
        ['feedback_FB1', 'l', 'AC'],
        ['feedback_FB1', 'M', 'B'],
        ['feedback_FB2', 'vegan', 'A'],
      ])('filter %s=%s, also as query + queryKey', async (name, value, expected) => {
        const key = name.replace('FB1', String(fb1)).replace('FB2', String(fb2));
        expect(sorted(await find({ selection: 'all', [key]: value }))).toEqual([...expected]);
        expect(sorted(await find({ selection: 'all', query: value, queryKey: key }))).toEqual([...expected]);
      });

      it('combines filters with each other and with selections', async () => {
        expect(await find({ selection: 'approved', updatedAfterDate: 1000, updatedBeforeDate: 5000 })).toEqual([
          'A',
          'D',
        ]);
        expect(await find({ selection: 'all', [`feedback_${fb1}`]: 'l', company: 'beta' })).toEqual(['C']);
      });

      it('refuses bad filters: values, query without queryKey, custom fields of another event', async () => {
        const fail = (query: Record<string, string | number>, status: number, message: RegExp) =>
          c.fail(
            'event.person.find',
            { token: w.adminA, query: { eventID: eventF, selection: 'all', ...query } },
            status,
            message,
          );
        await fail({ updatedAfterDate: 'yesterday' }, 400, /^400 updatedAfterDate /);
        await fail({ ticket: '0' }, 400, /^400 ticket /);
        await fail({ query: 'x' }, 400, /query and queryKey/);
        await fail({ query: 'x', queryKey: 'city' }, 400, /^400 queryKey /);
        await fail({ query: 'x', queryKey: 'ticket' }, 400, /^400 query .*queryKey ticket/);
        await fail({ [`feedback_${fb1}`]: long(1001) }, 400, new RegExp(`^400 feedback_${fb1} `));
        await fail({ [`feedback_${fbOther}`]: 'x' }, 404, /feedback/);
        await fail({ query: 'x', queryKey: `feedback_${fbOther}` }, 404, /feedback/);
        await fail({ feedback_999999: 'x' }, 404, /feedback/);
        // A near miss of the pattern is no parameter: refused, where it would have been ignored.
        await fail({ [`feedbak_${fb1}`]: 'x' }, 400, new RegExp(`^400 feedbak_${fb1} is not a parameter of event\\.person\\.find, which takes .*selection.* and feedback_<feedbackID>$`)); // prettier-ignore
        await fail({ feedback_9999999999: 'x' }, 404, /feedback/);
        await fail({ query: 'x', queryKey: 'feedback_9999999999' }, 404, /feedback/);
        await fail({ offset: '99999999999999999999' }, 400, /^400 offset /);
      });

      it.each([
        ['name', 'ASC', 'ABCD'],
        ['name', 'DESC', 'DCBA'],
        ['memberID', 'ASC', 'ABCD'],
        ['level', 'ASC', 'ACDB'],
        ['level', 'DESC', 'BDCA'],
        ['email', 'ASC', 'BACD'],
        ['rsvp', 'ASC', 'CDBA'],
        ['printed', 'DESC', 'ADCB'],
        ['updatedDate', 'DESC', 'DCBA'],
        ['ticket', 'DESC', 'ADCB'],
        ['private', 'ASC', 'ACBD'],
        ['downloaded', 'DESC', 'CBDA'],
        ['device', 'ASC', 'ABCD'],
        ['origin', 'DESC', 'ADCB'],
        ['language', 'DESC', 'ADCB'],
        ['firstName', 'ASC', 'ABCD'],
        ['company', 'ASC', 'BDAC'],
      ])('order %s %s', async (order, orderOrientation, expected) => {
        expect((await find({ selection: 'all', order, orderOrientation })).join('')).toBe(expected);
      });

      it('order rand gives every attendee once; bad orders are refused', async () => {
        expect(sorted(await find({ selection: 'all', order: 'rand' }))).toEqual(['A', 'B', 'C', 'D']);
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'all', order: 'city' } },
          400,
          /^400 order /,
        );
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'all', orderOrientation: 'UP' } },
          400,
          /^400 orderOrientation /,
        );
      });

      it('answers the §2.3 record with tags and speakerID; fullProfile=1 adds the custom-field answers', async () => {
        const rows = await c.ok('event.person.find', { token: w.adminA, query: { eventID: eventF, selection: 'all' } });
        expect(rows).toHaveLength(4);
        for (const r of rows) {
          expect(Object.keys(r)).toEqual(expect.arrayContaining(ATTENDEE_FIELDS));
          expect(r).not.toHaveProperty('feedbacks');
        }
        const [a, b] = rows;
        expect(a).toMatchObject({
          personID: id.A,
          name: 'Alice Admin',
          level: '4',
          nfc: 'AQID',
          prints: '2',
          ticketID: '5',
          profileID: '2',
          assistantEmail: 'pa@example.com',
          message: 'hello',
          language: 'pt',
          personLanguage: 'pt',
          speakerID: '',
          tags: [{ tagID: String(tf.t1), name: 'One', color: '' }],
          downloaded: '0',
          headline: 'CEO, Acme',
        });
        expect(b).toMatchObject({
          personID: id.B,
          name: 'Bob Collector',
          username: 'bob',
          email: '',
          downloaded: '1',
          private: '1',
          approved: '-1',
        });
        expect(b.speakerID).toMatch(/^\d+$/);
        const full = await c.ok('event.person.find', {
          token: w.adminA,
          query: { eventID: eventF, selection: 'all', fullProfile: 1 },
        });
        expect(full[0].feedbacks).toEqual([
          { feedbackID: String(fb1), name: 'Shirt size', value: 'L' },
          { feedbackID: String(fb2), name: 'Diet', value: 'Vegan' },
        ]);
        expect(full[3].feedbacks).toEqual([
          { feedbackID: String(fb1), name: 'Shirt size', value: '' },
          { feedbackID: String(fb2), name: 'Diet', value: '' },
        ]);
        expect(full[0]).toHaveProperty('timezone');
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'all', fullProfile: 2 } },
          400,
          /^400 fullProfile /,
        );
      });

      it('format=excel answers the rows as a spreadsheet', async () => {
        const r = await c.call('event.person.find', {
          token: w.adminA,
          query: { eventID: eventF, selection: 'all', format: 'excel' },
        });
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toMatch(/spreadsheetml/);
      });

      it('pages with limit and offset; paginated=1 adds the total', async () => {
        expect(await find({ selection: 'all', limit: 2 })).toEqual(['A', 'B']);
        expect(await find({ selection: 'all', limit: 2, offset: 2 })).toEqual(['C', 'D']);
        const r = await c.call('event.person.find', {
          token: w.adminA,
          query: { eventID: eventF, selection: 'not-admin', limit: 1, paginated: 1 },
        });
        expect(r.status).toBe(200);
        expect(r.count).toBe(1);
        expect(r.total).toBe('3');
        const plain = await c.call('event.person.find', {
          token: w.adminA,
          query: { eventID: eventF, selection: 'all' },
        });
        expect(plain.total).toBeUndefined();
      });

      it('only Data Collectors may ask more than 100 per page (up to 500000)', async () => {
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'all', limit: 101 } },
          400,
          /^400 limit must be at most 100/,
        );
        await c.fail(
          'event.person.find',
          { token: w.adminA, query: { eventID: eventF, selection: 'all', limit: 500 } },
          400,
          /Data Collectors/,
        );
        expect(await find({ selection: 'all', limit: 100 })).toHaveLength(4);
        expect(await find({ selection: 'all', limit: 500 }, collector)).toEqual(['A', 'B', 'C', 'D']);
        expect(await find({ selection: 'all', limit: 500000 }, collector)).toHaveLength(4);
        await c.fail(
          'event.person.find',
          { token: collector, query: { eventID: eventF, selection: 'all', limit: 500001 } },
          400,
          /^400 limit /,
        );
        await c.fail(
          'event.person.find',
          { token: collector, query: { eventID: eventF, selection: 'all', limit: 0 } },
          400,
          /^400 limit /,
        );
      });

      it('a Data Collector pulls over 500 attendees in one page, each with its tags and answers', async () => {
        const big = Number(
          (
            await c.ok('company.event.bind', {
              token: w.adminA,
              query: { companyID: w.companyA.companyID },
              body: { name: 'Big Event', nickname: `big-event-${style}` },
            })
          )[0].eventID,
        );
        const N = 620;
        const people = await p.db
          .insertInto('person')
          .values(Array.from({ length: N }, (_, i) => ({ username: `big-${style}-${i}`, name: `Big ${1000 + i}` })))
          .returning('personID')
          .execute();
        const ids = people.map((r) => r.personID).sort((a, b) => a - b);
        await p.db
          .insertInto('eventPerson')
          .values(ids.map((personID, i) => ({ eventID: big, personID, qrCode: `q${i}`, name: `Big ${1000 + i}` })))
          .execute();
        const collectorID = Number(id.B);
        await p.enrol(big, collectorID, { level: 256 });
        const t = (
          await p.db
            .insertInto('tag')
            .values({ companyID: Number(w.companyA.companyID), eventID: big, name: 'Big', kind: 'attendee' })
            .returning('tagID')
            .executeTakeFirstOrThrow()
        ).tagID;
        const f = (
          await p.db
            .insertInto('feedback')
            .values({ eventID: big, name: 'Q', type: 'text' })
            .returning('feedbackID')
            .executeTakeFirstOrThrow()
        ).feedbackID;
        const last = ids[N - 1];
        await p.db.insertInto('eventPersonTag').values({ eventID: big, personID: last, tagID: t }).execute();
        await p.db.insertInto('feedbackAnswer').values({ eventID: big, personID: last, feedbackID: f, value: 'A' }).execute(); // prettier-ignore
        const rows = await c.ok('event.person.find', {
          token: collector,
          query: { eventID: big, selection: 'all', order: 'memberID', limit: 1000, fullProfile: 1 },
        });
        expect(rows).toHaveLength(N + 1);
        const byID = new Map(rows.map((r) => [Number(r.personID), r as Record<string, unknown>]));
        expect(byID.get(last)).toMatchObject({ tags: [{ tagID: String(t), name: 'Big', color: '' }], feedbacks: [{ feedbackID: String(f), name: 'Q', value: 'A' }] }); // prettier-ignore
        expect(byID.get(ids[0])).toMatchObject({ tags: [], feedbacks: [{ feedbackID: String(f), name: 'Q', value: '' }] }); // prettier-ignore
        expect(rows.filter((r) => (r.tags as unknown as unknown[]).length > 0)).toHaveLength(1);
      });

      it('an event-scope token gets limited records of the others, and its own in full', async () => {
        const rows = await c.ok('event.person.find', {
          token: staffF,
          query: { eventID: eventF, selection: 'all', fullProfile: 1 },
        });
        const [a, b, own, d] = rows;
        // Badge codes, login names and admin data of others are hidden; contact data of public attendees shown.
        expect(a).toMatchObject({
          personID: id.A,
          name: 'Alice Admin',
          username: '',
          qrCode: '',
          nfc: '',
          message: '',
          assistantEmail: '',
          email: 'alice@example.com',
          telephone: '+1 555',
          feedbacks: [],
        });
        expect(d).toMatchObject({ personID: id.D, email: '', telephone: '', private: '1' });
        expect(b.email).toBe('');
        expect(own).toMatchObject({ personID: id.C, username: 'carol@example.com', email: 'carol@example.com' });
        expect(own.qrCode).not.toBe('');
        expect((own.feedbacks as unknown as unknown[]).length).toBe(2);
        // A system-scope Data Collector sees everything.
        const full = await c.ok('event.person.find', {
          token: collector,
          query: { eventID: eventF, selection: 'all' },
        });
        expect(full[0]).toMatchObject({ username: 'alice@example.com', nfc: 'AQID', assistantEmail: 'pa@example.com' });
        expect(full[3]).toMatchObject({ email: 'dave@example.com', telephone: '+1 777' });
        // It cannot look for what it cannot see.
        expect(await find({ selection: 'all', email: 'dave' }, staffF)).toEqual([]);
        expect(await find({ selection: 'all', email: 'dave' })).toEqual(['D']);
        expect(await find({ selection: 'all', email: 'carol' }, staffF)).toEqual(['C']);
        for (const query of [
          { username: 'bob' } as Record<string, string>,
          { assistantEmail: 'pa' },
          { [`feedback_${fb1}`]: 'l' },
          { query: 'l', queryKey: `feedback_${fb1}` },
          { order: 'email' },
        ])
          await c.fail(
            'event.person.find',
            { token: staffF, query: { eventID: eventF, selection: 'all', ...query } },
            403,
          );
        // event.person.get shows the same limited record.
        expect(await get(id.A, staffF, eventF)).toMatchObject({ username: '', nfc: '', email: 'alice@example.com' });
      });

      it('admins, staff and Data Collectors may list; 401, 403 for other related callers, 404 for others', async () => {
        const call = (token: string | undefined, eventID: string | number = eventA) =>
          c.call('event.person.find', { token, query: { eventID, selection: 'all' } });
        for (const token of [w.adminA, w.operator, w.eventAdminSystem, w.staff]) {
          const r = await call(token);
          expect(r.status, r.text).toBe(200);
          expect(r.data.map((x) => x.personID)).toContain(String(w.attendeeID));
        }
        for (const token of [w.attendee, w.attendeeSystem, w.eventAdminEventScope, w.externalA])
          expect((await call(token)).status).toBe(403);
        expect((await call(undefined)).status).toBe(401);
        expect((await call(w.adminB)).status).toBe(404);
        expect((await call(w.operator, 999999)).status).toBe(404);
        expect((await call(collector)).status).toBe(404); // a Data Collector of event F has no relation to event A
      });
    });
  });
});
