// bench/search.mjs — event.search on a big event (issue 16; docs/api/search.md "How fast"): N objects
// (default 50,000: 30,000 sessions, 10,000 speakers, 5,000 sponsors, 5,000 attendees) of one event with
// text drawn from a 3,000-word vocabulary, written straight in the store and indexed (reindexEvent). Times,
// in the same process and store, the search as it was before the index (bench/search-baseline: a
// `lower(column) LIKE '%…%'` query per type, at most 50 rows of each, ranked in memory; copied from the
// code it replaced) against the index's (one ranked, paged query), for a rare word, a common word and two
// words typed as you go; prints the medians and their ratio, and what indexing costs a write. For the
// common word (in 80% of the objects, more than SEARCH_RANK_CAP matches) also the index's search with
// every match ranked (no cap, as before the cap) and the capped one without `total`, in the same run.
// Usage: node bench/search.mjs [--rows 50000 --store sqlite|postgres --runs 30]
import { mkdtempSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { pgSchema } from './lib.mjs';
import { migrate, openStore } from '../src/platform/db/connect.ts';
import { createPerson } from '../src/platform/resources/person/repository.ts';
import { createCompany } from '../src/platform/resources/company/repository.ts';
import { createEvent } from '../src/platform/resources/event/repository.ts';
import { seedAttendees } from '../src/platform/seed/attendees.ts';
import { reindex, reindexEvent } from '../src/platform/resources/search/maintain.ts';
import { scopeOf, searchEvent } from '../src/platform/resources/search/search.ts';
import { RANK_CAP, matchQuery } from '../src/platform/resources/search/repository.ts';
import { termsOf } from '../src/platform/resources/search/text.ts';
import { SEARCH_TYPES } from '../src/platform/resources/search/documents.ts';
import { searchEvent as likeSearch } from './search-baseline/repository.ts';
import { rankHits } from './search-baseline/rank.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '50000' },
    store: { type: 'string', default: 'sqlite' },
    runs: { type: 'string', default: '30' },
  },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);

// Deterministic text: a vocabulary of pronounceable words, drawn with a skew (a few are common).
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'an', 'or', 'el', 'is', 'um'];
const VOCABULARY = Array.from({ length: 3000 }, (_, i) => {
  let w = '';
  for (let n = i + 17; n > 0 || w.length < 4; n = Math.floor(n / 16)) w += SYLLABLES[n % 16];
  return w;
});
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)];
const words = (n) => Array.from({ length: n }, word).join(' ');

const pg = values.store === 'postgres' ? await pgSchema() : undefined;
const url = pg?.url ?? `file:${join(mkdtempSync(join(tmpdir(), 'podium-bench-search-')), 'podium.db')}`;
const { db } = openStore(url);
try {
  await migrate(db);
  const creatorID = await createPerson(db, { username: 'op@bench.test', password: 'bench password 1' }, 0);
  const { companyID } = await createCompany(db, { shortName: 'Search bench' }, 0);
  const eventID = await createEvent(db, { companyID, creatorID }, { name: 'Big', nickname: 'big' }, 0);
  const split = { activity: Math.round(ROWS * 0.6), speaker: Math.round(ROWS * 0.2), sponsor: Math.round(ROWS * 0.1) };
  const people = ROWS - split.activity - split.speaker - split.sponsor;
  let t = performance.now();
  const insert = async (table, n, make) => {
    for (let i = 0; i < n; i += 500)
      await db
        .insertInto(table)
        .values(Array.from({ length: Math.min(500, n - i) }, (_, k) => ({ eventID, ...make(i + k) })))
        .execute();
  };
  // "zyxwvut" is rare: in 5 sessions' descriptions.
  await insert('activity', split.activity, (i) => ({ name: words(4), description: `<p>${words(30)}${i % (split.activity / 5) === 0 ? ' zyxwvut' : ''}</p>`, location: words(1) })); // prettier-ignore
  await insert('speaker', split.speaker, () => ({ name: words(2), headline: words(4), description: words(20) }));
  await insert('sponsor', split.sponsor, () => ({ name: words(1), companyName: words(2), bio: words(15) }));
  await seedAttendees(db, eventID, people, 'bench');
  console.log(`stored ${ROWS.toLocaleString('en')} objects in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  await db.transaction().execute((trx) => reindexEvent(trx, eventID));
  console.log(`indexed them in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const time = async (run) => (await alternate([run]))[0];
  /**
   * The runs of several searches taken in turn (a, b, c, a, b, c, …), so a change of the machine's load
   * falls on each alike: per search the median time of one call and, on SQLite (in this process), the
   * median CPU time of one call (process.cpuUsage, this process's, the store's work included).
   */
  const alternate = async (runs) => {
    const out = runs.map(() => ({ ms: [], cpu: [], n: 0 }));
    for (let i = 0; i < RUNS; i++)
      for (const [k, run] of runs.entries()) {
        const c = process.cpuUsage();
        const s = performance.now();
        out[k].n = await run();
        out[k].ms.push(performance.now() - s);
        const used = process.cpuUsage(c);
        out[k].cpu.push((used.user + used.system) / 1000);
      }
    return out.map((o) => ({ ms: median(o.ms), cpu: median(o.cpu), n: o.n }));
  };
  const common = VOCABULARY[0];
  const queries = [
    ['a rare word', 'zyxwvut'],
    [`a common word`, common],
    ['two words, the last typed half', `${VOCABULARY[3]} ${VOCABULARY[5].slice(0, 3)}`],
  ];
  const types = new Set(SEARCH_TYPES);
  console.log(
    `store ${values.store}, ${RUNS} runs each, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  // On SQLite (this process) by CPU time, which the machine's load does not inflate; on PostgreSQL by time.
  const ratio = (a, b) => `${(pg ? a.ms / b.ms : a.cpu / b.cpu).toFixed(1)}×`;
  const shown = (t) => `${t.ms.toFixed(2)} ms${pg ? '' : ` (CPU ${t.cpu.toFixed(2)} ms)`}`;
  for (const [label, query] of queries) {
    const before = async () => {
      const raw = await likeSearch(db, eventID, query, types, { personID: creatorID, admin: true, readsPeople: true });
      return rankHits(raw, query).slice(0, 20).length && raw.length;
    };
    const search =
      (cap, paginated = true) =>
      async () => {
        const found = await searchEvent(db, eventID, query, types, { personID: creatorID, admin: true }, { limit: 20, offset: 0, paginated }, cap); // prettier-ignore
        return paginated ? found.total : found.hits.length;
      };
    // Taken in turn: the LIKE scan, the index capped (with total), every match ranked (no cap, as before
    // the cap), the index capped without total.
    const [b, after, all, noTotal] = await alternate([before, search(RANK_CAP), search(1e9), search(RANK_CAP, false)]);
    console.log(
      `${label.padEnd(32)} "${query}": ${after.n} found, ${Math.min(after.n, RANK_CAP)} ranked. ` +
        `LIKE scan ${shown(b)} (${b.n} rows read, at most 50 a type); index: every match ranked ${shown(all)}, ` +
        `capped ${shown(after)}, capped without total ${shown(noTotal)}. ` +
        `Speed-up over the scan (${pg ? 'time' : 'CPU'}): no cap ${ratio(b, all)}, capped ${ratio(b, after)} (without total ${ratio(b, noTotal)})`,
    );
  }
  // The plan of the ranking query on this many rows (no planner settings changed).
  const { CompiledQuery } = await import('kysely');
  const scope = scopeOf(eventID, types, { personID: creatorID, admin: false });
  const q = matchQuery(db, scope, termsOf(VOCABULARY[3]), 20, 0).compile(db);
  const plan = await db.executeQuery(CompiledQuery.raw(`${pg ? 'explain' : 'explain query plan'} ${q.sql}`, [...q.parameters])); // prettier-ignore
  console.log(`plan: ${plan.rows.map((r) => r.detail ?? r['QUERY PLAN']).filter((l) => /Index|VIRTUAL|SCAN|Scan/.test(l)).map((l) => l.trim()).join(' | ')}`); // prettier-ignore
  // What the index adds to one write: replacing a session's document in its transaction.
  const [{ activityID }] = await db.selectFrom('activity').select('activityID').where('eventID', '=', eventID).limit(1).execute(); // prettier-ignore
  const write = await time(async () => {
    await db.transaction().execute((trx) => reindex(trx, 'activity', [activityID]));
    return 1;
  });
  console.log(`one session's document replaced (its own transaction): ${write.ms.toFixed(2)} ms`);
} finally {
  await db.destroy();
  await pg?.drop();
}
