import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';

// A person's journey across one company's events (issue 16, docs/api/journey.md):
// 'company.person.journey' answers, oldest first and paginated, the registrations, applications,
// sessions enrolled, check-ins, e-mails and comments the person left in the company's own events —
// never what they did at another company's events. Company admins only. Both stores, both call styles.

const FIELDS = ['type', 'date', 'eventID', 'eventName', 'objectID', 'activityID', 'detail'];

describe.each(STORES)('journey on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let personID: number;
  let strangerID: number;
  let activityID: number;
  let eventA2: string;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    personID = w.attendeeID;
    const A = Number(w.eventA.eventID);
    const B = Number(w.eventB.eventID);
    eventA2 = (
      await p.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID: w.companyA.companyID },
        body: { name: 'A Two', nickname: 'a-two' },
      })
    )[0].eventID;
    const insert = async (table: string, values: Record<string, unknown>, id: string) =>
      Number((await p.db.insertInto(table as never).values(values as never).returning(id as never).executeTakeFirstOrThrow() as Record<string, unknown>)[id]); // prettier-ignore
    // In company A: registered at 100, applied to A2 at 150, a session at 200, a check-in at 300, an e-mail at 400, a comment at 500.
    await p.db.updateTable('eventPerson').set({ enrollmentDate: 100, approved: 1 }).where('eventID', '=', A).where('personID', '=', personID).execute(); // prettier-ignore
    await p.db.insertInto('eventApplicant').values({ eventID: Number(eventA2), personID, username: 'attendee@podium.test', email: 'attendee@podium.test', name: 'Attendee', dateCreated: 150 }).execute(); // prettier-ignore
    activityID = await insert('activity', { eventID: A, name: 'Keynote' }, 'activityID');
    await p.db.insertInto('activityPerson').values({ activityID, eventID: A, personID, approved: 1, dateCreated: 200 }).execute(); // prettier-ignore
    const scan = { personID, activityID: 0, direction: 'in', result: 'first', deviceID: personID, createdAt: 1 };
    await insert('checklog', { ...scan, eventID: A, date: 300, scanKey: 'in:0:a:300' }, 'checklogID');
    const mail = { personID, kind: 'custom', status: 'sent', updatedDate: 1 };
    await insert(
      'emailLog',
      { ...mail, eventID: A, idem: 'journey-a', subject: 'Welcome to A', date: 400 },
      'emailLogID',
    );
    await insert('comment', { eventID: A, activityID, personID, text: 'Great #talk', date: 500 }, 'commentID');
    // In company B, between them in time: none of it is A's to see.
    await p.enrol(B, personID, { enrollmentDate: 120 });
    await insert('checklog', { ...scan, eventID: B, date: 250, scanKey: 'in:0:b:250' }, 'checklogID');
    await insert(
      'emailLog',
      { ...mail, eventID: B, idem: 'journey-b', subject: 'Welcome to B', date: 260 },
      'emailLogID',
    );
    // A person who only ever came to company B's events.
    strangerID = await p.person('stranger@podium.test', PASSWORD);
    await p.enrol(B, strangerID, { enrollmentDate: 10 });
  });
  afterAll(() => p?.close());

  describe.each(STYLES)('%s', (style) => {
    let c: Client;
    beforeAll(() => {
      c = client(p, style);
    });
    const journey = (query: Record<string, string | number>, token = w.adminA) =>
      c.call('company.person.journey', { token, query: { companyID: w.companyA.companyID, personID, ...query } });

    it("answers the person's steps in the company's events, oldest first, and nothing of another company's", async () => {
      const r = await journey({});
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.data[0]).sort()).toEqual([...FIELDS].sort());
      const A = w.eventA.eventID;
      expect(r.data.map((s) => [s.type, s.date, s.eventID, s.activityID, s.detail])).toEqual([
        ['registration', '100', A, '0', 'approved 1'],
        ['application', '150', eventA2, '0', 'approved 0'],
        ['session', '200', A, String(activityID), 'approved 1'],
        ['checkin', '300', A, '0', 'in first'],
        ['email', '400', A, '0', 'sent: Welcome to A'],
        ['comment', '500', A, String(activityID), 'Great #talk'],
      ]);
      expect(r.data[0].eventName).toBe('A One');
      expect(r.data[1]).toMatchObject({ eventName: 'A Two', objectID: String(personID) });
      // Company B's admin sees B's part only.
      const b = await c.call('company.person.journey', { token: w.adminB, query: { companyID: w.companyB.companyID, personID } }); // prettier-ignore
      expect(b.data.map((s) => [s.type, s.date])).toEqual([['registration', '120'], ['checkin', '250'], ['email', '260']]); // prettier-ignore
    });

    it('pages the journey (limit, offset, paginated)', async () => {
      const r = await journey({ limit: 2, offset: 2, paginated: 1 });
      expect([r.count, r.total]).toEqual([2, '6']);
      expect(r.data.map((s) => s.type)).toEqual(['session', 'checkin']);
      expect((await journey({ limit: 101 })).text).toBe('400 limit must be at most 100');
    });

    it.each([
      ['a person who never came to its events', () => ({ personID: strangerID }), '404 person not found'],
      ['a person who does not exist', () => ({ personID: 999999 }), '404 person not found'],
      ['a company that does not exist', () => ({ companyID: 999999 }), '404 company not found'],
    ])('answers %s as missing', async (_, query, line) => {
      expect((await journey(query())).text).toBe(line);
    });

    it("another company's admin gets what a missing company gets; people who are not its admins are refused", async () => {
      const missing = (await journey({ companyID: 999999 })).text;
      expect((await journey({}, w.adminB)).text).toBe(missing);
      expect((await journey({}, w.externalA)).status).toBe(403);
      // An attendee of the company's event is not a person of the company: refused, as every company operation does.
      expect((await journey({}, w.attendeeSystem)).text).toBe('403 a person of the company is required');
    });
  });
});
