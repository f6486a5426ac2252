// event.search (issue 16, spec §4.2, docs/api/search.md): one query across an event's sessions, speakers,
// sponsors, site sections, comments and — for its admins only — attendees, answered from the store's own
// text index (SQLite FTS5, PostgreSQL tsvector + GIN), ranked, typed and paged, on both stores. The index
// follows every write in the write's transaction, except attendees: their writes note them in that
// transaction and the job processes write their documents after (pending.ts); what people type cannot
// become query syntax.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { PASSWORD, STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { searchHitWire } from '../../src/shared/wire/search.ts';
import { reindexEvent } from '../../src/platform/resources/search/maintain.ts';
import { indexPending } from '../../src/platform/resources/search/pending.ts';
import { matchQuery } from '../../src/platform/resources/search/repository.ts';
import { scopeOf } from '../../src/platform/resources/search/search.ts';
import { termsOf } from '../../src/platform/resources/search/text.ts';
import { SEARCH_TYPES } from '../../src/platform/resources/search/documents.ts';
import { up as backfill } from '../../src/platform/db/migrations/0025_search_index.ts';

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
    // Fixtures straight in the store, then indexed as the seed does (reindexEvent); the writes the
    // tests below make go through the API, whose hook keeps the index.
    const one = (table: string, values: Record<string, unknown>, key: string) =>
      p.insertRow(table, { eventID, ...values }, key);
    ids.keynote = await one('activity', { name: 'Quantum keynote', description: '<p>Opening talk</p>' }, 'activityID');
    ids.workshop = await one('activity', { name: 'Hands-on quantum computing', description: 'Bring a laptop' }, 'activityID'); // prettier-ignore
    ids.lunch = await one('activity', { name: 'Lunch', description: `${'Food and drinks. '.repeat(20)}Talk about QUANTUM over lunch. ${'More. '.repeat(30)}` }, 'activityID'); // prettier-ignore
    ids.saopaulo = await one('activity', { name: 'Palestra em São Paulo', description: 'Conferência de Inovação' }, 'activityID'); // prettier-ignore
    ids.speaker = await one('speaker', { name: 'Ada Lovelace', headline: 'Quantum physicist' }, 'speakerID');
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
    await reindexEvent(p.db, eventID);
    await reindexEvent(p.db, Number(w.eventB.eventID));
    await p.ok('company.tool.edit', { token: w.adminA, query: { companyID: w.companyA.companyID, key: 'autoApproveComment' }, body: { value: 0 } }); // prettier-ignore
    ids.waiting = (await p.ok('comment.create', { token: open.token, query: { activityID: ids.keynote }, body: { text: 'Is quantum real? #physics' } }))[0].commentID; // prettier-ignore
    ids.approved = (await p.ok('comment.create', { token: w.adminA, query: { activityID: ids.keynote }, body: { text: 'Slides on quantum are up' } }))[0].commentID; // prettier-ignore
  });
  afterAll(() => p?.close());

  const keys = (list: { type: string; id: string }[]) => list.map((h) => `${h.type}:${h.id}`);

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

    it('finds every type of object, typed; names before texts; ranks in thousandths of the best', async () => {
      const found = await hits(w.adminA, 'quantum', { limit: 100 });
      const titled = [`activity:${ids.keynote}`, `activity:${ids.workshop}`, `sponsor:${ids.sponsor}`, `person:${shy.personID}`]; // prettier-ignore
      const texts = [
        `activity:${ids.lunch}`,
        `speaker:${ids.speaker}`,
        `section:${ids.section}`,
        `person:${open.personID}`,
        `comment:${ids.approved}`,
        `comment:${ids.waiting}`,
      ];
      expect(keys(found).slice(0, 4).sort()).toEqual(titled.sort());
      expect(keys(found).slice(4).sort()).toEqual(texts.sort());
      const ranks = found.map((h) => Number(h.rank));
      expect(ranks[0]).toBe(1000);
      expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
      for (const h of found) expect(h.eventID).toBe(String(eventID));
      const byKey = Object.fromEntries(found.map((h) => [`${h.type}:${h.id}`, h]));
      expect(byKey[`activity:${ids.keynote}`]).toMatchObject({ title: 'Quantum keynote', snippet: 'Opening talk', activityID: '' }); // prettier-ignore
      expect(byKey[`sponsor:${ids.sponsor}`]).toMatchObject({ title: 'Quantum Corp', snippet: 'Q Corp Gold' });
      expect(byKey[`section:${ids.section}`].snippet).toBe('A quantum leap');
      expect(byKey[`person:${open.personID}`]).toMatchObject({ title: 'Olga Open', snippet: 'Quantum engineer, Acme' });
      expect(byKey[`comment:${ids.approved}`]).toMatchObject({ activityID: ids.keynote, snippet: 'Slides on quantum are up' }); // prettier-ignore
      // A long text is cut around the word.
      const lunch = byKey[`activity:${ids.lunch}`].snippet;
      expect(lunch.length).toBeLessThanOrEqual(162);
      expect(lunch).toMatch(/^….*QUANTUM.*…$/);
    });

    it('the last word is a prefix (as you type), the others whole words; case and accents do not matter', async () => {
      expect(keys(await hits(w.adminA, 'keyn'))).toEqual([`activity:${ids.keynote}`]);
      expect(keys(await hits(w.adminA, 'hands on comp'))).toEqual([`activity:${ids.workshop}`]);
      expect(await hits(w.adminA, 'quant keynote')).toEqual([]);
      for (const q of ['sao paulo', 'SÃO PAULO', 'Sa\u0303o', 'conferencia INOVACAO', 'inovação', 'PALESTRA'])
        expect(keys(await hits(w.adminA, q)), q).toEqual([`activity:${ids.saopaulo}`]);
    });

    it.each([
      ['a quote', '"quantum', 'quantum'],
      ['quotes around', '"quantum keynote"', 'quantum keynote'],
      ['NEAR', 'NEAR(quantum keynote)', 'near quantum keynote'],
      ['a star', 'quan*', 'quan'],
      ['a minus', '-keynote quantum', 'keynote quantum'],
      ['a column filter', 'title:quantum', 'title quantum'],
      ['a column set', '{scope}: quantum', 'scope quantum'],
      ['OR', 'lunch OR keynote', 'lunch or keynote'],
      ['tsquery operators', "quantum & !keynote | 'lunch':*", 'quantum keynote lunch'],
      ['a caret and parentheses', '^quantum (keynote)', 'quantum keynote'],
    ])('%s is only words: %s', async (_label, typed, words) => {
      expect(keys(await hits(w.adminA, typed))).toEqual(keys(await hits(w.adminA, words)));
    });

    it('the words the platform filters by are never found: event, types, visibility', async () => {
      for (const q of [`e${eventID}`, 'activity', 'approved', `waiting p${open.personID}`, `a${ids.keynote}`])
        expect(await hits(w.adminA, q), q).toEqual([]);
    });

    it('attendees are found by admins only; comments waiting for moderation by their authors and admins', async () => {
      expect(keys(await hits(w.adminA, 'qq-private'))).toEqual([`person:${shy.personID}`]);
      for (const token of [w.attendee, w.staff, open.token, shy.token]) {
        const seen = keys(await hits(token, 'quantum', { limit: 100 }));
        expect(seen.filter((k) => k.startsWith('person:'))).toEqual([]);
        expect(await hits(token, 'olga', { types: 'person' })).toEqual([]);
        expect(seen).toContain(`comment:${ids.approved}`);
        expect(seen.includes(`comment:${ids.waiting}`)).toBe(token === open.token);
      }
      expect(keys(await hits(w.adminA, 'real'))).toEqual([`comment:${ids.waiting}`]);
    });

    it('types narrows; paged with a total, past the end too', async () => {
      expect(keys(await hits(w.adminA, 'quantum', { types: 'speaker,sponsor' })).sort()).toEqual([`speaker:${ids.speaker}`, `sponsor:${ids.sponsor}`].sort()); // prettier-ignore
      const all = keys(await hits(w.adminA, 'quantum', { limit: 100 }));
      const page = await search(w.adminA, 'quantum', { limit: 3, offset: 2, paginated: 1 });
      expect(page.total).toBe(String(all.length));
      expect(keys(page.data.map((h) => searchHitWire.parse(h)))).toEqual(all.slice(2, 5));
      const past = await search(w.adminA, 'quantum', { limit: 3, offset: 50, paginated: 1 });
      expect([past.total, past.data]).toEqual([String(all.length), []]);
      expect(await hits(w.adminA, '%_')).toEqual([]);
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
      expect(keys(await hits(w.adminA, 'outsider'))).toEqual([]);
    });
  });

  const find = async (query: string, token = w.adminA) =>
    keys((await p.ok('event.search', { token, query: { eventID, limit: 100 }, body: { query } })) as never);

  it('ranks by the store’s relevance: a name before a text, more mentions before fewer; equal ones by type', async () => {
    const made = async (
      op: string,
      query: Record<string, string | number>,
      body: Record<string, string | number>,
      key: string,
    ) => String((await p.ok(op, { token: w.adminA, query, body }))[0][key]);
    const rust = await made('speaker.create', { eventID }, { name: 'Rust Cohle' }, 'speakerID');
    const thrice = await made(
      'sponsor.create',
      { eventID },
      { name: 'Oxide', companyName: 'Oxide', bio: 'rust rust rust' },
      'sponsorID',
    );
    const once = await made(
      'sponsor.create',
      { eventID },
      { name: 'Ferric', companyName: 'Ferric', bio: 'rust and iron' },
      'sponsorID',
    );
    expect(await find('rust')).toEqual([`speaker:${rust}`, `sponsor:${thrice}`, `sponsor:${once}`]);
    // The same text on a session and a speaker: the table's order of types.
    const a = await made('speaker.create', { eventID }, { name: 'Zebra crossing' }, 'speakerID');
    const [s] = await p.ok('event.hotsite.create', { token: w.adminA, query: { eventID, section: 'text' }, body: { position: 2, name: 'Zebra crossing', text: '' } }); // prettier-ignore
    expect(await find('zebra crossing')).toEqual([`speaker:${a}`, `section:${s.sectionID}`]);
  });

  it('the index follows each write in its transaction: create, edit, remove, a session’s comments with it', async () => {
    const [made] = await p.ok('activity.create', { token: w.adminA, query: { eventID }, body: { name: 'Origami basics' } }); // prettier-ignore
    expect(await find('origami')).toEqual([`activity:${made.activityID}`]);
    await p.ok('activity.edit', { token: w.adminA, query: { activityID: made.activityID, key: 'name' }, body: { value: 'Kirigami basics' } }); // prettier-ignore
    expect(await find('origami')).toEqual([]);
    expect(await find('kirigami')).toEqual([`activity:${made.activityID}`]);
    const [comment] = await p.ok('comment.create', { token: w.adminA, query: { activityID: made.activityID }, body: { text: 'Paper cranes' } }); // prettier-ignore
    expect(await find('cranes')).toEqual([`comment:${comment.commentID}`]);
    await p.ok('activity.remove', { token: w.adminA, query: { activityID: made.activityID } });
    expect(await find('kirigami')).toEqual([]);
    expect(await find('cranes')).toEqual([]);
    // A sandbox write is rolled back, its index change with it.
    await p.ok('speaker.create', { token: w.adminA, query: { eventID, sandbox: 1 }, body: { name: 'Sandy Sandbox' } });
    expect(await find('sandy')).toEqual([]);
    await p.ok('speaker.remove', { token: w.adminA, query: { speakerID: ids.speaker } });
    expect(await find('lovelace')).toEqual([]);
    // Attendees: written after the commit (pending.ts); the round is run here rather than waited for.
    await p.ok('event.person.operate', { token: w.adminA, query: { eventID, personID: open.personID, key: 'company' }, body: { value: 'Globex' } }); // prettier-ignore
    await indexPending(p.db);
    expect(await find('globex')).toEqual([`person:${open.personID}`]);
    expect(await find('acme')).toEqual([]);
    await p.ok('event.person.dismiss', { token: w.adminA, query: { eventID, personID: open.personID } });
    await indexPending(p.db);
    expect(await find('globex')).toEqual([]);
    const [section] = await p.ok('event.hotsite.create', { token: w.adminA, query: { eventID, section: 'text' }, body: { position: 3, name: 'Venue', text: '<p>Marquee hall</p>' } }); // prettier-ignore
    expect(await find('marquee')).toEqual([`section:${section.sectionID}`]);
    await p.ok('event.hotsite.remove', { token: w.adminA, query: { sectionID: section.sectionID } });
    expect(await find('marquee')).toEqual([]);
  });

  it('attendees: the write notes them in its transaction, the job process writes their documents after', async () => {
    const notes = () => p.db.selectFrom('searchPending').select(['eventID', 'personID']).execute();
    // A sandbox registration is rolled back, its note with it.
    const body = {
      firstName: 'Sandra',
      lastName: 'Zyzzyva',
      email: 'zyzzyva-sandbox@podium.test',
      feedbackContent: '[]',
    };
    await p.ok('form.respondRegistration', { query: { eventID, sandbox: 1 }, body });
    expect(await notes()).toEqual([]);
    // A real one: found once the process that runs jobs took the note, by itself (poked by the change).
    const [made] = await p.ok('form.respondRegistration', { query: { eventID }, body: { ...body, email: 'zyzzyva@podium.test' } }); // prettier-ignore
    const deadline = Date.now() + 10_000;
    while ((await find('zyzzyva')).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await find('zyzzyva')).toEqual([`person:${made.personID}`]);
    expect(await notes()).toEqual([]);
    // More notes than a round takes (the process's own rounds may take some first): a page at most per
    // round, the document written again, every note gone.
    await p.db.deleteFrom('searchIndex').where('objectID', '=', Number(made.personID)).where('type', '=', 'person').execute(); // prettier-ignore
    await p.db.insertInto('searchPending').values(Array.from({ length: 700 }, () => ({ eventID, personID: Number(made.personID) }))).execute(); // prettier-ignore
    for (let taken = -1; taken !== 0;) {
      taken = await indexPending(p.db);
      expect(taken).toBeLessThanOrEqual(500);
    }
    expect(await notes()).toEqual([]);
    expect(await find('zyzzyva')).toEqual([`person:${made.personID}`]);
  });

  it('is not a scan: the plan reads the FTS5 table by MATCH / the GIN index', async () => {
    const scope = scopeOf(eventID, new Set(SEARCH_TYPES), { personID: 1, admin: false })!;
    const q = matchQuery(p.db, scope, termsOf('quantum key'), 20, 0).compile(p.db);
    if (kind === 'sqlite') {
      const plan = await p.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters])); // prettier-ignore
      const details = plan.rows.map((r) => r.detail);
      expect(
        details.some((d) => /VIRTUAL TABLE INDEX \d+:M/.test(d)),
        details.join('\n'),
      ).toBe(true);
      expect(details.filter((d) => /^SCAN (activity|speaker|sponsor|hotsite|eventPerson|comment)\b/.test(d))).toEqual(
        [],
      );
    } else {
      // A small table is cheaper to read whole; the planner is told not to, to show the index serves the query.
      const plan = await p.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
      });
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Bitmap Index Scan on "?searchIndex_doc"?/);
      expect(text).not.toMatch(/Seq Scan on (activity|speaker|sponsor|hotsite|"eventPerson"|comment)\b/);
    }
  });

  it('the migration indexes the rows that were there before it (backfill)', async () => {
    await sql`drop table "searchIndex"`.execute(p.db);
    await backfill(p.db);
    expect(await find('quantum keynote')).toEqual([`activity:${ids.keynote}`]);
    expect(await find('quinn')).toEqual([`person:${shy.personID}`]);
    expect(await find('slides')).toEqual([`comment:${ids.approved}`]);
  });
});

// A word in most of the event (docs/api/search.md "Common words"): at most SEARCH_RANK_CAP matches — the
// first in the index's order — are ranked, so the cost is bounded; a rarer word is ranked whole. Here the
// cap is 3 and "common" is in 6 sessions; the one with it in its name (the best hit) is the last written,
// past the first 3 candidates.
describe.each(STORES)('event.search of a common word on %s (SEARCH_RANK_CAP=3)', (kind) => {
  let p: TestPlatform;
  let w: World;
  let eventID: number;
  const ids: string[] = [];
  const CAP = 3;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { SEARCH_RANK_CAP: String(CAP) });
    w = await world(p);
    eventID = Number(w.eventA.eventID);
    for (let i = 0; i < 5; i++)
      ids.push(await p.insertRow('activity', { eventID, name: `Talk ${i}`, description: `A common ${i % 2 ? 'rare' : 'plain'} text` }, 'activityID')); // prettier-ignore
    ids.push(await p.insertRow('activity', { eventID, name: 'Common rare ground', description: 'Common and rare' }, 'activityID')); // prettier-ignore
    await reindexEvent(p.db, eventID);
  });
  afterAll(() => p?.close());

  const search = async (query: string, more: Record<string, string | number> = {}) => {
    const r = await client(p, 'rest').call('event.search', { token: w.adminA, query: { eventID, paginated: 1, ...more }, body: { query } }); // prettier-ignore
    expect(r.status, r.text).toBe(200);
    return { total: r.total, ids: r.data.map((h) => searchHitWire.parse(h).id) };
  };

  it('ranks the first matches only; total counts them all; the pages end at the cap', async () => {
    const common = await search('common');
    expect(common.total).toBe('6');
    expect(common.ids).toHaveLength(CAP);
    expect(common.ids.sort()).toEqual(ids.slice(0, CAP).sort());
    expect(common.ids).not.toContain(ids[5]);
    expect(await search('common', { offset: 2, limit: 5 })).toMatchObject({ total: '6', ids: [expect.any(String)] });
    expect(await search('common', { offset: CAP })).toEqual({ total: '6', ids: [] });
    // A rarer word (3 matches, within the cap) is ranked whole: its best hit, last written, first.
    const rare = await search('rare');
    expect(rare).toMatchObject({ total: '3' });
    expect(rare.ids[0]).toBe(ids[5]);
    expect(rare.ids.slice(1).sort()).toEqual([ids[1], ids[3]].sort());
  });

  it('the plan: the index, then at most the cap of candidates scored, then sorted', async () => {
    const scope = scopeOf(eventID, new Set(SEARCH_TYPES), { personID: 1, admin: true })!;
    const q = matchQuery(p.db, scope, termsOf('common'), 20, 0, CAP).compile(p.db);
    if (kind === 'sqlite') {
      const plan = await p.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters])); // prettier-ignore
      const details = plan.rows.map((r) => r.detail).join('\n');
      // The candidates: a subquery (not folded into the outer query) reading the FTS5 table by MATCH.
      expect(details).toMatch(/(CO-ROUTINE|MATERIALIZE)[^\n]*\n[^\n]*VIRTUAL TABLE INDEX \d+:M/);
      expect(details).toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    } else {
      const plan = await p.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${q.sql}`, [...q.parameters])); // prettier-ignore
      });
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Bitmap Index Scan on "?searchIndex_doc"?/);
      // Sort above the Limit of the candidates, which stops the index's scan at the cap (6 match).
      expect(text).toMatch(
        /Sort[\s\S]*Limit \(actual rows=3[\s\S]*Bitmap Heap Scan on "?searchIndex"? \(actual rows=3 /,
      );
    }
  });
});
