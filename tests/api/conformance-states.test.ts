// Issue 10 defects 7 and 8: states and derived fields that mean what they say.
// 7. The `approved` and `denied` selections select the same spec §3 state in event.person.find,
//    activity.person.find and company.event.find: approved 1, and denied = registered and not approved
//    (approved 0). Same data for the three: an approved person, a waiting one, one not registered.
// 8. An event's derived fields are empty or true: month, quarter, eventDays '' while it has no dates;
//    hasSponsor, hasTag, hasFeedback say whether the event has any (not the company's tool switches);
//    Podium keeps no photos or materials, so hasPhoto and hasMaterial are 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';

/** The people of defect 7, by their state in event A and in its activity (spec §3). */
const PEOPLE = { approved: 1, waiting: 0, unregistered: -1 } as const;
type Who = keyof typeof PEOPLE;

describe.each(STORES)('defects 7 and 8 on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let activityID: string;
  const personID = {} as Record<Who, string>;
  const token = {} as Record<Who, string>;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    const eventID = Number(w.eventA.eventID);
    activityID = String(
      (
        await p.db
          .insertInto('activity')
          .values({ eventID, name: 'Workshop', dateBegin: 1900000000, dateEnd: 1900003600 })
          .returning('activityID')
          .executeTakeFirstOrThrow()
      ).activityID,
    );
    // States straight in the store: the selections are under test, not how a state is reached.
    for (const [who, approved] of Object.entries(PEOPLE) as [Who, number][]) {
      const id = await p.person(`${who}@states.test`, PASSWORD);
      personID[who] = String(id);
      if (approved >= 0) {
        await p.enrol(eventID, id, { approved });
        await p.db
          .insertInto('activityPerson')
          .values({ activityID: Number(activityID), eventID, personID: id, approved })
          .execute();
      }
      token[who] = await p.signIn(`${who}@states.test`, PASSWORD);
    }
  }, 120_000);
  afterAll(() => p?.close());

  describe.each(STYLES)('%s style', (style) => {
    it.each([
      ['approved', ['approved']],
      ['denied', ['waiting']],
    ] as [string, Who[]][])(
      'selection %s means the same spec §3 state in the three operations',
      async (selection, expected) => {
        const c = client(p, style);
        const ours = (ids: string[]) => (Object.keys(PEOPLE) as Who[]).filter((who) => ids.includes(personID[who]));
        const attendees = await c.ok('event.person.find', {
          token: w.adminA,
          query: { eventID: w.eventA.eventID, selection, limit: 100 },
        });
        const enrolled = await c.ok('activity.person.find', { token: w.adminA, query: { activityID, selection } });
        // company.event.find selects by the caller's own registration: who finds event A with it.
        const finders: Who[] = [];
        for (const who of Object.keys(PEOPLE) as Who[]) {
          const events = await c.ok('company.event.find', {
            token: token[who],
            query: { companyID: w.companyA.companyID, selection },
          });
          if (events.some((e) => e.eventID === w.eventA.eventID)) finders.push(who);
        }
        expect({
          'event.person.find': ours(attendees.map((r) => r.personID)),
          'activity.person.find': ours(enrolled.map((r) => r.personID)),
          'company.event.find': finders,
        }).toEqual({
          'event.person.find': expected,
          'activity.person.find': expected,
          'company.event.find': expected,
        });
        // And every row says the state it was selected for.
        const state = selection === 'approved' ? '1' : '0';
        for (const r of [...attendees, ...enrolled]) expect(r.approved).toBe(state);
      },
    );

    it('derives month, quarter, eventDays and has* from what the event has', async () => {
      const c = client(p, style);
      const companyID = w.companyA.companyID;
      // Every company tool switch that shares a name with a has* field is on: has* must not follow them.
      for (const key of ['feedback', 'photo', 'material'])
        await c.ok('company.tool.edit', { token: w.adminA, query: { companyID, key }, body: { value: 1 } });
      const [made] = await c.ok('company.event.bind', {
        token: w.adminA,
        query: { companyID },
        body: { name: `Fresh ${style}`, nickname: `fresh-${style}` },
      });
      const eventID = made.eventID;
      const read = async () => (await c.ok('event.get', { token: w.adminA, query: { eventID } }))[0];
      const derived = (r: Record<string, string>) =>
        Object.fromEntries(
          ['month', 'quarter', 'eventDays', 'hasSponsor', 'hasTag', 'hasFeedback', 'hasPhoto', 'hasMaterial', 'happeningNow', 'happeningAfter'].map((k) => [k, r[k]]), // prettier-ignore
        );
      const fresh = { month: '', quarter: '', eventDays: '', hasSponsor: '0', hasTag: '0', hasFeedback: '0', hasPhoto: '0', hasMaterial: '0', happeningNow: '0', happeningAfter: '0' }; // prettier-ignore
      expect(derived(made), 'the answer of company.event.bind').toEqual(fresh);
      expect(derived(await read()), 'event.get').toEqual(fresh);

      // 10 August 2031 09:00 UTC, three days and a bit.
      const begin = Date.UTC(2031, 7, 10, 9, 0, 0) / 1000;
      for (const [key, value] of [
        ['dateBegin', begin],
        ['dateEnd', begin + 2 * 86400 + 3600],
      ] as const)
        await c.ok('event.edit', { token: w.adminA, query: { eventID, key }, body: { value } });
      await c.ok('sponsor.create', { token: w.adminA, query: { eventID }, body: { name: 'Acme' } });
      await c.ok('tag.create', { token: w.adminA, query: { eventID }, body: { name: 'Track' } });
      await c.ok('feedback.create', { token: w.adminA, query: { eventID }, body: { name: 'Diet', type: 'text' } });
      expect(derived(await read())).toEqual({
        month: '8',
        quarter: '3',
        eventDays: '3',
        hasSponsor: '1',
        hasTag: '1',
        hasFeedback: '1',
        hasPhoto: '0',
        hasMaterial: '0',
        happeningNow: '0',
        happeningAfter: '1',
      });
    });
  });
});
