// Conformance defects of issue 10, items 4-6, in both call styles on both stores:
// 4. `general=1` (spec §2.4 automatic inscription) enrols new attendees, and existing ones when it is
//    switched on, under the seat rules (capacity, waiting list, oversize).
// 5. Attendee records carry `enrollmentID` (spec §2.3 short shape), and form.respondRegistration answers
//    the full §2.3 record — for an existing person or a double submit, only what the call sent plus ids.
// 6. Event tags: company.tag.* and event.tag.*, found by company.event.find `tags`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';

/** Spec §2.3 attendee fields (with the short shape's enrollmentID). */
const ATTENDEE_FIELDS = [
  'username', 'socialAID', 'socialBID', 'socialCID', 'email', 'telephone', 'qrCode', 'ebQrCode', 'nfc', 'eventID',
  'personID', 'firstName', 'lastName', 'name', 'personName', 'role', 'company', 'summary', 'image', 'headline',
  'personHeadline', 'city', 'socialA', 'socialB', 'socialC', 'socialD', 'website', 'position', 'level', 'ebUserID',
  'mkUserID', 'approved', 'paid', 'rsvp', 'present', 'message', 'private', 'meetingQuotaID', 'meetingAutoConfirm',
  'engagement', 'language', 'personLanguage', 'origin', 'crmAID', 'crmAType', 'crmBID', 'enrollmentDate',
  'updatedDate', 'meetingQuotaName', 'meetingQuotaAmount', 'device', 'downloaded', 'favorite', 'ally', 'isSponsor',
  'prints', 'profileID', 'ticketID', 'assistantEmail', 'ticketName', 'ticketEntrance', 'tags', 'speakerID',
  'enrollmentID',
]; // prettier-ignore

describe.each(STORES)('conformance: enrollment and event tags on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  describe.each(STYLES)('%s style', (style) => {
    let c: Client;
    let seq = 0;
    beforeAll(() => {
      c = client(p, style);
    });
    const unique = (what: string) => `${what}-${style}-${++seq}`;

    async function newEvent(): Promise<string> {
      const nickname = unique('e');
      const [e] = await c.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: nickname, nickname },
      });
      await c.ok('event.edit', { token: w.adminA, query: { eventID: e.eventID, key: 'visible' }, body: { value: 1 } });
      return e.eventID;
    }
    async function newActivity(eventID: string, seats: { capacity?: number; oversize?: number } = {}) {
      const [a] = await c.ok('activity.create', {
        token: w.adminA,
        query: { eventID },
        body: { name: unique('talk'), capacity: seats.capacity ?? 0 },
      });
      if (seats.oversize)
        await c.ok('activity.edit', {
          token: w.adminA,
          query: { activityID: a.activityID, key: 'oversize' },
          body: { value: seats.oversize },
        });
      return a.activityID;
    }
    const makeGeneral = (activityID: string) =>
      c.ok('activity.edit', { token: w.adminA, query: { activityID, key: 'general' }, body: { value: 1 } });
    const register = (eventID: string, email: string, body: Record<string, string | number> = {}) =>
      c.call('form.respondRegistration', {
        query: { eventID },
        body: { email, firstName: 'Reg', lastName: email.split('@')[0], feedbackContent: '[]', ...body },
      });
    /** The activity's enrollments in enrollment order: the person's e-mail, approved, position. */
    async function seatsOf(activityID: string) {
      const rows = await p.db
        .selectFrom('activityPerson')
        .innerJoin('person', 'person.personID', 'activityPerson.personID')
        .select(['person.email', 'activityPerson.approved', 'activityPerson.position'])
        .where('activityID', '=', Number(activityID))
        .orderBy('activityPerson.enrollmentID')
        .execute();
      return rows.map((r) => [r.email, r.approved, r.position]);
    }

    describe('4. general activities enrol attendees (capacity 1, oversize 2: one seat, one place in the queue)', () => {
      /** Ways a person becomes an attendee of the event; `before` switches general on before anyone joins. */
      const ROUTES: { route: string; before: boolean; join: (eventID: string, email: string) => Promise<unknown> }[] = [
        {
          route: 'form.respondRegistration',
          before: true,
          join: async (eventID, email) => expect((await register(eventID, email)).status).toBe(200),
        },
        {
          route: 'event.person.bind',
          before: true,
          join: (eventID, email) =>
              c.ok('event.person.bind', { token: w.adminA, query: { eventID }, body: { name: 'Bound One', username: email } }), // prettier-ignore
        },
        {
          route: 'activity.person.bind by name + email (enrols in the event)',
          before: true,
          join: async (eventID, email) => {
            const other = await newActivity(eventID);
            await c.ok('activity.person.bind', { token: w.adminA, query: { activityID: other }, body: { name: 'Bound Two', email } }); // prettier-ignore
          },
        },
        {
          route: 'activity.edit general=1 after they registered',
          before: false,
          join: async (eventID, email) => expect((await register(eventID, email)).status).toBe(200),
        },
      ];

      it.each(ROUTES)('$route', async ({ before, join }) => {
        const eventID = await newEvent();
        const general = await newActivity(eventID, { capacity: 1, oversize: 2 });
        const plain = await newActivity(eventID);
        if (before) await makeGeneral(general);
        const people = [unique('first'), unique('second'), unique('third')].map((n) => `${n}@general.test`);
        for (const email of people) await join(eventID, email);
        if (!before) await makeGeneral(general);
        // First come first seated, the next on the waiting list, the third left out (full), none refused.
        expect(await seatsOf(general)).toEqual([
          [people[0], 1, 0],
          [people[1], 0, 1],
        ]);
        // Activities that are not general are untouched.
        expect((await seatsOf(plain)).filter(([email]) => people.includes(email as string))).toEqual([]);
      });

      it('a registrant on the event waiting list (approved 0) is not enrolled; switching general on again does not re-enrol', async () => {
        const eventID = await newEvent();
        const general = await newActivity(eventID);
        await makeGeneral(general);
        await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'capacity' }, body: { value: 1 } });
        await c.ok('form.edit', { token: w.adminA, query: { eventID, key: 'waitingList' }, body: { value: 1 } });
        const [a, b] = [unique('in'), unique('queued')].map((n) => `${n}@general.test`);
        expect((await register(eventID, a)).data[0]).toMatchObject({ approved: '1' });
        expect((await register(eventID, b)).data[0]).toMatchObject({ approved: '0' });
        expect(await seatsOf(general)).toEqual([[a, 1, 0]]);
        // general already 1: editing it to 1 changes nothing (someone who left stays out).
        await c.ok('activity.person.dismiss', { token: w.adminA, query: { activityID: general, personID: (await p.db.selectFrom('person').select('personID').where('email', '=', a).executeTakeFirstOrThrow()).personID } }); // prettier-ignore
        await makeGeneral(general);
        expect(await seatsOf(general)).toEqual([]);
      });
    });

    describe('5. enrollmentID and the registration answer', () => {
      it('attendee records carry a stable enrollmentID of the registration', async () => {
        const eventID = await newEvent();
        const ids = [];
        for (const email of [unique('a'), unique('b')].map((n) => `${n}@ids.test`)) {
          const [row] = (await register(eventID, email)).data as Record<string, string>[];
          const [read] = await c.ok('event.person.get', {
            token: w.adminA,
            query: { eventID, personID: row.personID },
          });
          expect(read.enrollmentID).toMatch(/^[1-9]\d*$/);
          expect(row.enrollmentID).toBe(read.enrollmentID);
          ids.push(Number(read.enrollmentID));
        }
        expect(ids[1]).toBeGreaterThan(ids[0]);
        const found = await c.ok('event.person.find', { token: w.adminA, query: { eventID, selection: 'all' } });
        expect(found.map((r) => Number(r.enrollmentID)).sort((x, y) => x - y)).toEqual(ids);
      });

      // guests: the guests bound with the registration (B guests, docs/api/guests.md), [] when none; emailed:
      // 1 when the call queued the confirmation e-mail (docs/messaging.md).
      it("a new person's answer is their full §2.3 record, as the event's admin reads it, plus tokenID, duplicate, guests and emailed", async () => {
        const eventID = await newEvent();
        const email = `${unique('new')}@answer.test`;
        const reg = await register(eventID, email, { role: 'Editor', company: 'Daily', telephone: '+351 1', login: 1 });
        expect(reg.status, reg.text).toBe(200);
        const row = reg.data[0] as Record<string, unknown>;
        expect(Object.keys(row).sort()).toEqual(
          [...ATTENDEE_FIELDS, 'tokenID', 'duplicate', 'guests', 'emailed'].sort(),
        );
        const { tokenID, duplicate, guests, emailed, ...record } = row;
        expect(guests).toEqual([]);
        expect(tokenID).toMatch(/^\S{60}$/);
        expect(duplicate).toBe('0');
        expect(emailed).toMatch(/^[01]$/);
        const [read] = await c.ok('event.person.get', { token: w.adminA, query: { eventID, personID: String(row.personID) } }); // prettier-ignore
        // event.person.get reads the full profile (feedbacks, timezone) besides the record's fields.
        expect(read).toMatchObject(record);
        expect(record).toMatchObject({
          role: 'Editor',
          company: 'Daily',
          headline: 'Editor, Daily',
          qrCode: read.qrCode,
        });
        expect(record.qrCode).not.toBe('');
      });

      it('an existing person gets the record of what was sent plus ids; a double submit the sent fields, never the stored ones', async () => {
        const email = `${unique('known')}@answer.test`;
        const elsewhere = await newEvent();
        const first = await register(elsewhere, email, { firstName: 'Stored', lastName: 'Profile', role: 'Stored Role', company: 'Stored Co' }); // prettier-ignore
        expect(first.status).toBe(200);
        const firstID = String(first.data[0].personID);

        const eventID = await newEvent();
        const sent = { firstName: 'Sent', lastName: 'Names', role: 'Sent Role', login: 1 };
        for (const [submit, duplicate] of [
          ['enrolled', '0'],
          ['double submit', '1'],
        ] as const) {
          const reg = await register(eventID, email, submit === 'enrolled' ? sent : { ...sent, firstName: 'Again' });
          expect(reg.status, reg.text).toBe(200);
          const row = reg.data[0] as Record<string, string>;
          expect(Object.keys(row).sort(), submit).toEqual(
            [...ATTENDEE_FIELDS, 'tokenID', 'duplicate', 'guests', 'emailed'].sort(),
          );
          // An anonymous double submit names nobody (docs/api/registration.md "Double submit").
          const personID = duplicate === '1' ? '' : firstID;
          expect(row, submit).toMatchObject({
            personID,
            eventID,
            email,
            firstName: submit === 'enrolled' ? 'Sent' : 'Again',
            lastName: 'Names',
            role: 'Sent Role',
            company: '',
            qrCode: '',
            tokenID: '',
            duplicate,
          });
          expect(reg.text, submit).not.toMatch(/Stored/);
          const [read] = await c.ok('event.person.get', { token: w.adminA, query: { eventID, personID: firstID } }); // prettier-ignore
          expect(row.enrollmentID, submit).toBe(duplicate === '1' ? '' : read.enrollmentID);
          expect(read.qrCode).not.toBe('');
        }
      });
    });

    describe('6. event tags', () => {
      it('company.tag.create, event.tag.bind, company.event.find tags:<id>, event.tag.find, event.tag.dismiss, company.tag.remove', async () => {
        const companyID = w.companyA.companyID;
        const [tagged, other] = [await newEvent(), await newEvent()];
        const name = unique('Product');
        const [tag] = await c.ok('company.tag.create', { token: w.adminA, query: { companyID }, body: { name, color: '#AA0000' } }); // prettier-ignore
        expect(tag).toMatchObject({ companyID, eventID: '', name, color: '#aa0000', kind: 'event' });
        const tagID = tag.tagID;
        expect((await c.ok('company.tag.find', { token: w.externalA, query: { companyID } })).map((t) => t.tagID)).toContain(tagID); // prettier-ignore
        await c.fail('company.tag.create', { token: w.adminA, query: { companyID }, body: { name: name.toUpperCase() } }, 409); // prettier-ignore

        expect(await c.ok('event.tag.bind', { token: w.adminA, query: { eventID: tagged, tagID } })).toEqual([{ eventID: tagged, tagID }]); // prettier-ignore
        await c.ok('event.tag.bind', { token: w.adminA, query: { eventID: tagged, tagID } }); // again: no change
        const find = (selection: string) =>
          c.ok('company.event.find', { token: w.adminA, query: { companyID, selection, limit: 100 } });
        expect((await find(`tags:${tagID}`)).map((e) => e.eventID)).toEqual([tagged]);
        const filtered = await c.ok('company.event.find', { token: w.adminA, query: { companyID, selection: 'all', tags: tagID, limit: 100 } }); // prettier-ignore
        expect(filtered.map((e) => e.eventID)).toEqual([tagged]);
        expect(await c.ok('event.tag.find', { query: { eventID: tagged } })).toEqual([tag]);
        expect(await c.ok('event.tag.find', { query: { eventID: other } })).toEqual([]);

        await c.ok('event.tag.dismiss', { token: w.adminA, query: { eventID: tagged, tagID } });
        expect(await find(`tags:${tagID}`)).toEqual([]);
        await c.ok('event.tag.bind', { token: w.adminA, query: { eventID: other, tagID } });
        expect(await c.ok('company.tag.remove', { token: w.adminA, query: { companyID, tagID } })).toEqual([tag]);
        expect(await c.ok('event.tag.find', { query: { eventID: other } })).toEqual([]);
        await c.fail(
          'company.tag.remove',
          { token: w.adminA, query: { companyID, tagID } },
          404,
          /^404 tag not found$/,
        );
      });

      it.each([
        ['an event admin who is not a company admin', 'eventAdminSystem', 403],
        ["another company's admin", 'adminB', 404],
        ['an attendee', 'attendee', 403],
      ] as const)('event.tag.bind by %s is refused (%s → %i)', async (_who, token, status) => {
        const [tag] = await c.ok('company.tag.create', { token: w.adminA, query: { companyID: w.companyA.companyID }, body: { name: unique('Locked') } }); // prettier-ignore
        await c.fail('event.tag.bind', { token: w[token], query: { eventID: w.eventA.eventID, tagID: tag.tagID } }, status); // prettier-ignore
      });

      it('only event tags of the same company bind; company tags are not tag.* tags', async () => {
        const [own] = await c.ok('tag.create', { token: w.adminA, query: { eventID: w.eventA.eventID }, body: { name: unique('Track') } }); // prettier-ignore
        const [theirs] = await c.ok('company.tag.create', { token: w.adminB, query: { companyID: w.companyB.companyID }, body: { name: unique('Beta') } }); // prettier-ignore
        for (const tagID of [own.tagID, theirs.tagID, '999999'])
          await c.fail('event.tag.bind', { token: w.adminA, query: { eventID: w.eventA.eventID, tagID } }, 404, /^404 tag not found$/); // prettier-ignore
        await c.fail('company.tag.create', { token: w.externalA, query: { companyID: w.companyA.companyID }, body: { name: 'X' } }, 403); // prettier-ignore
        await c.fail('tag.get', { query: { tagID: theirs.tagID } }, 404, /^404 tag not found$/);
      });
    });
  });
});
