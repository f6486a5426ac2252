// event.search (issue 16, spec §4.2, docs/api/search.md): one query across an event's sessions, speakers,
// sponsors, site sections, people and comments — only what the caller's level may see (private profiles
// and e-mails for admins, staff and collectors; comments waiting for moderation for their authors and the
// admins) — ranked, typed, capped per type and paged; on both stores and in both call styles. Another
// company's admin and another event's people get what a missing event gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { searchHitWire } from '../../src/shared/wire/search.ts';
import { PER_TYPE } from '../../src/platform/resources/search/repository.ts';

const EVENT_PASSWORD = `${PASSWORD} event`;

describe.each(STORES)('event.search on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventID: number;
  const ids: Record<string, string> = {};
  let shy: { personID: string; token: string };
  let open: { personID: string; token: string };
  let outsider: string;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
    eventID = Number(w.eventA.eventID);
    const one = (table: string, values: Record<string, unknown>, key: string) =>
      p.insertRow(table, { eventID, ...values }, key);
    ids.keynote = await one('activity', { name: 'Quantum keynote', description: '<p>Opening talk</p>' }, 'activityID');
    ids.workshop = await one('activity', { name: 'Hands-on quantum computing', description: 'Bring a laptop' }, 'activityID'); // prettier-ignore
    ids.lunch = await one('activity', { name: 'Lunch', description: `${'Food and drinks. '.repeat(20)}Talk about QUANTUM over lunch. ${'More. '.repeat(30)}` }, 'activityID'); // prettier-ignore
    ids.percent = await one('activity', { name: '100% uptime', description: '' }, 'activityID');
    ids.speaker = await one('speaker', { name: 'Ada Subquantum', headline: 'Physicist' }, 'speakerID');
    ids.sponsor = await one('sponsor', { name: 'Q Corp', companyName: 'Quantum Corp', category: 'Gold' }, 'sponsorID');
    ids.section = await one('hotsite', { section: 'text', position: 1, name: 'About', text: '<p>A quantum leap</p>' }, 'sectionID'); // prettier-ignore
    const passwordHash = await hashPassword(EVENT_PASSWORD);
    const person = async (email: string, values: Record<string, unknown>, event = eventID) => {
      const personID = await p.person(email, PASSWORD);
      await p.enrol(event, personID, { level: 1, passwordHash, ...values });
      return { personID: String(personID), token: await p.signIn(email, EVENT_PASSWORD, event) };
    };
    shy = await person('shy@podium.test', { name: 'Quinn Quantum', email: 'qq-private@podium.test', private: 1 });
    open = await person('open@podium.test', { name: 'Olga Open', role: 'Quantum engineer', company: 'Acme' });
    outsider = (await person('outsider@podium.test', { name: 'Quantum Outsider' }, Number(w.eventB.eventID))).token;
    await p.ok('company.tool.edit', { token: w.adminA, query: { companyID: w.companyA.companyID, key: 'autoApproveComment' }, body: { value: 0 } }); // prettier-ignore
    ids.waiting = (await p.ok('comment.create', { token: open.token, query: { activityID: ids.keynote }, body: { text: 'Is quantum real? #physics' } }))[0].commentID; // prettier-ignore
    ids.approved = (await p.ok('comment.create', { token: w.adminA, query: { activityID: ids.keynote }, body: { text: 'Slides on quantum are up' } }))[0].commentID; // prettier-ignore
  });
  afterAll(() => p?.close());

  describe.each(STYLES)('%s style', (style) => {
    let c: Client;
    beforeAll(() => {
      c = client(p, style);
    });
    const search = (token: string, query: string, more: Record<string, string | number> = {}) =>
      c.call('event.search', { token, query: { eventID, ...more }, body: { query } });
    const hits = async (token: string, query: string, more: Record<string, string | number> = {}) => {
      const r = await search(token, query, more);
      expect(r.status, r.text).toBe(200);
      return r.data.map((h) => searchHitWire.parse(h));
    };
    const keys = (list: { type: string; id: string }[]) => list.map((h) => `${h.type}:${h.id}`);

    it('finds every type of object, typed and ranked: name starts with it, a word of the name does, the name holds it, the text does', async () => {
      const found = await hits(w.adminA, 'quantum');
      expect(keys(found)).toEqual([
        // rank 3: the name starts with it (by type: sessions, speakers, sponsors, sections, people, comments)
        `activity:${ids.keynote}`,
        `sponsor:${ids.sponsor}`,
        // rank 2: a word of the name
        `activity:${ids.workshop}`,
        `person:${shy.personID}`,
        // rank 1: inside the name
        `speaker:${ids.speaker}`,
        // rank 0: only the text
        `activity:${ids.lunch}`,
        `section:${ids.section}`,
        `person:${open.personID}`,
        // (the same rank and type: by title, here the authors' names)
        `comment:${ids.approved}`,
        `comment:${ids.waiting}`,
      ]);
      expect(found.map((h) => h.rank)).toEqual(['3', '3', '2', '2', '1', '0', '0', '0', '0', '0']);
      for (const h of found) expect(h.eventID).toBe(String(eventID));
      const byKey = Object.fromEntries(found.map((h) => [`${h.type}:${h.id}`, h]));
      expect(byKey[`activity:${ids.keynote}`]).toMatchObject({ title: 'Quantum keynote', snippet: 'Opening talk', activityID: '' }); // prettier-ignore
      expect(byKey[`section:${ids.section}`].snippet).toBe('A quantum leap');
      expect(byKey[`person:${open.personID}`]).toMatchObject({ title: 'Olga Open', snippet: 'Quantum engineer, Acme' });
      expect(byKey[`comment:${ids.approved}`]).toMatchObject({ activityID: ids.keynote, snippet: 'Slides on quantum are up' }); // prettier-ignore
      // A long text is cut around the match.
      const lunch = byKey[`activity:${ids.lunch}`].snippet;
      expect(lunch.length).toBeLessThanOrEqual(162);
      expect(lunch).toMatch(/^….*QUANTUM.*…$/);
    });

    it('attendees see people who did not make their profile private, and approved comments and their own', async () => {
      const seen = keys(await hits(w.attendee, 'quantum'));
      expect(seen).toContain(`person:${open.personID}`);
      expect(seen).not.toContain(`person:${shy.personID}`);
      expect(seen).toContain(`comment:${ids.approved}`);
      expect(seen).not.toContain(`comment:${ids.waiting}`);
      // The author of the waiting comment sees it; the private person sees themself.
      expect(keys(await hits(open.token, 'quantum'))).toContain(`comment:${ids.waiting}`);
      expect(keys(await hits(shy.token, 'quinn'))).toEqual([`person:${shy.personID}`]);
      // E-mails are searched for those who may read every attendee only.
      expect(keys(await hits(w.staff, 'qq-private'))).toEqual([`person:${shy.personID}`]);
      expect(keys(await hits(w.eventAdminEventScope, 'qq-private'))).toEqual([]);
      expect(keys(await hits(w.attendee, 'qq-private'))).toEqual([]);
      // Staff see the waiting comment? Only admins moderate: no.
      expect(keys(await hits(w.staff, 'quantum'))).not.toContain(`comment:${ids.waiting}`);
    });

    it('types narrows the search; paged with a total; % and _ are plain characters', async () => {
      expect(keys(await hits(w.adminA, 'quantum', { types: 'speaker,sponsor' }))).toEqual([`sponsor:${ids.sponsor}`, `speaker:${ids.speaker}`]); // prettier-ignore
      const page = await search(w.adminA, 'quantum', { limit: 3, offset: 2, paginated: 1 });
      expect(page.total).toBe('10');
      expect(page.data.map((h) => h.id)).toEqual([ids.workshop, shy.personID, ids.speaker]);
      expect(keys(await hits(w.adminA, '0%'))).toEqual([`activity:${ids.percent}`]);
      expect(await hits(w.adminA, '_%')).toEqual([]);
      expect(await hits(w.adminA, 'nothing like this')).toEqual([]);
    });

    it.each([
      ['a one-character query', 'q', {}, '400 query must be at least 2 characters'],
      ['blanks only', '     ', {}, '400 query must be at least 2 characters'],
      ['a query over 100 characters', 'q'.repeat(101), {}, '400 query must be at most 100 characters'],
      ['an unknown type', 'quantum', { types: 'activity,planet' }, '400 types must be types from activity, speaker, sponsor, section, person, comment separated by commas'], // prettier-ignore
      ['no query', '', {}, '400 query cannot be empty'],
    ])('%s is refused', async (_label, query, more, line) => {
      expect((await search(w.adminA, query, more)).text).toBe(line);
    });

    it('another company’s admin and another event’s person get what a missing event gets', async () => {
      for (const token of [w.adminB, outsider]) {
        expect((await search(token, 'quantum')).text).toBe('404 event not found');
        expect((await c.call('event.search', { token, query: { eventID: 987654321 }, body: { query: 'quantum' } })).text).toBe('404 event not found'); // prettier-ignore
      }
      expect((await c.call('event.search', { query: { eventID }, body: { query: 'quantum' } })).status).toBe(401);
      // Nothing of event B is found from event A.
      expect(keys(await hits(w.adminA, 'outsider'))).toEqual([]);
    });
  });

  it(`reads at most ${PER_TYPE} objects of each type`, async () => {
    await p.db
      .insertInto('speaker')
      .values(Array.from({ length: PER_TYPE + 10 }, (_, i) => ({ eventID, name: `Zebra ${i}` })))
      .execute();
    const r = await p.call('event.search', { token: w.adminA, query: { eventID, limit: 100, paginated: 1 }, body: { query: 'zebra' } }); // prettier-ignore
    expect(r.total).toBe(String(PER_TYPE));
  });
});
