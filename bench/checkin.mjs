// bench/checkin.mjs — check-in at the doors (issue 16; docs/api/checkin.md): 20 devices scan 5,000
// attendees at once on one `podium start` process (PostgreSQL store, core 0), the load generator on core
// 1. Each attendee is scanned by two devices (10,000 scans): every device scans its 500 codes one after
// the other, waiting for each answer as a phone does, with its own token and a nonce per scan. Prints
// scans/s, p50/p99 and whether each attendee got exactly one first entry (from the answers and from the
// store); then the same 20 devices and requests against a bare node:http server answering a scan's bytes
// (bench/bare-server.mjs) in the same run, and our figures as ratios to it. Goal: ≥ 500 scans/s, p99 ≤ 100 ms.
// Usage: npm run bench:checkin [-- --attendees 5000 --devices 20]
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { URLSearchParams } from 'node:url';
import pg from 'pg';
import { Pool } from 'undici';
import { benchEnv, pgSchema, pinSelf, seedDemo, startPinned } from './lib.mjs';

const { values } = parseArgs({
  options: { attendees: { type: 'string', default: '5000' }, devices: { type: 'string', default: '20' } },
});
const N = Number(values.attendees);
const DEVICES = Number(values.devices);
const GOAL_RATE = 500;
const GOAL_P99_MS = 100;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Every device's scans: device d takes 2N/DEVICES codes from d·N/DEVICES on, so each code is scanned by two devices. */
function schedule(codes) {
  const share = Math.floor(N / DEVICES);
  return Array.from({ length: DEVICES }, (_, d) =>
    Array.from({ length: 2 * share }, (_, i) => codes[(d * share + i) % N]),
  );
}

/** Runs every device's requests, each device one at a time; answers scans/s, latencies and the bodies. */
async function run(origin, lists, pathOf) {
  const pool = new Pool(origin, { connections: DEVICES, pipelining: 1 });
  const latencies = [];
  const bodies = [];
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    lists.map(async (list, d) => {
      for (const [i, code] of list.entries()) {
        const sent = performance.now();
        const r = await pool.request({ path: pathOf(d, i, code), method: 'GET' });
        const text = await r.body.text();
        latencies.push(performance.now() - sent);
        if (r.statusCode !== 200 && failed++ < 3) console.error(`${r.statusCode} ${text}`);
        if (r.statusCode === 200) bodies.push(text);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { rate: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), failed, bodies };
}

pinSelf(1);
const store = await pgSchema();
const env = { ...benchEnv('unused'), DATABASE_URL: store.url, JOBS_WORK: '0' };
let server;
let bare;
try {
  const { eventID, username, password } = seedDemo(env);
  // The attendees, straight in the store: 5,000 registrations through the API would be another benchmark.
  const db = new pg.Client({ connectionString: store.url });
  await db.connect();
  const codes = Array.from({ length: N }, () => randomBytes(18).toString('base64url'));
  await db.query(
    `with p as (insert into person (username, name) select 'scan' || g || '@bench.podium.test', 'Scan ' || g
       from generate_series(1, $1::int) g returning "personID", name)
     insert into "eventPerson" ("eventID", "personID", name, "qrCode", approved)
     select $2::int, p."personID", p.name, ($3::text[])[row_number() over ()], 1 from p`,
    [N, Number(eventID), codes],
  );
  await db.query('analyze');

  server = await startPinned(0, ['bin/podium.js', 'start'], env);
  const origin = `http://127.0.0.1:${server.port}`;
  const signIn = async () => {
    const r = await fetch(`${origin}/person/signIn?username=${encodeURIComponent(username)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password }),
    });
    return (await r.json()).data[0].tokenID;
  };
  const tokens = [];
  for (let d = 0; d < DEVICES; d++) tokens.push(await signIn());
  const lists = schedule(codes);
  const date = Math.floor(Date.now() / 1000);
  let tag = 'bench-warm';
  const scanPath = (d, i, code) =>
    `/checklog/checkIn?tokenID=${tokens[d]}&eventID=${eventID}&code=${code}&date=${date + i}&nonce=${tag}-${d}-${i}`;

  // Warm-up on a session's door (its own first entries), so the entrance's figures start cold of nothing.
  const { rows } = await db.query(`select "activityID" from activity where "eventID" = $1 limit 1`, [Number(eventID)]);
  const warm = lists.map((l) => l.slice(0, 20));
  await run(origin, warm, (d, i, code) => `${scanPath(d, i, code)}&activityID=${rows[0].activityID}`);

  tag = 'bench-run';
  const ours = await run(origin, lists, scanPath);
  const firsts = new Map();
  for (const body of ours.bodies) {
    const row = JSON.parse(body).data[0];
    if (row.result === 'first') firsts.set(row.personID, (firsts.get(row.personID) ?? 0) + 1);
  }
  const stored = await db.query(
    `select count(*)::int n, count(distinct "personID")::int people from checklog where "eventID" = $1 and "activityID" = 0 and result = 'first'`,
    [Number(eventID)],
  );
  // A reference write through the same dispatcher, same devices and count: event.person.print (one
  // conditional update, its change logged), so what the scan's own rules cost shows apart from a write's.
  const ids = new Map(
    (await db.query('select "qrCode", "personID" from "eventPerson" where "eventID" = $1', [Number(eventID)])).rows.map(
      (r) => [r.qrCode, r.personID],
    ),
  );
  const print = await run(origin, lists, (d, i, code) => `/event/person/print?tokenID=${tokens[d]}&eventID=${eventID}&personID=${ids.get(code)}`); // prettier-ignore
  await db.end();
  server.child.kill();
  server = undefined;

  // The limit: a bare node:http server on the same core answering one scan's bytes, same devices and requests.
  const bodiesFile = join(tmpdir(), `checkin-bodies-${process.pid}.json`);
  writeFileSync(bodiesFile, JSON.stringify({}));
  bare = await startPinned(0, ['bench/bare-server.mjs'], { BODIES_FILE: bodiesFile });
  const limit = await run(`http://127.0.0.1:${bare.port}`, lists, (d, i, code) => `/x?code=${code}&d=${d}&i=${i}`);

  const line = (name, r) => [name, r.rate.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), String(r.failed)];
  const lines = [
    ['', 'scans/s', 'p50 ms', 'p99 ms', 'failed'],
    line('checklog.checkIn', ours),
    line('event.person.print', print),
    line('bare node:http', limit),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const l of lines) console.log(l.map((c, i) => c.padEnd(widths[i])).join('  '));
  const exactlyOnce = firsts.size === N && [...firsts.values()].every((n) => n === 1);
  const storedOnce = stored.rows[0].n === N && stored.rows[0].people === N;
  console.log(`${DEVICES} devices, ${N} attendees, ${ours.bodies.length + ours.failed} scans`);
  console.log(
    `ratio to bare: scans/s ${((ours.rate / limit.rate) * 100).toFixed(1)}%, p99 ×${(ours.p99 / limit.p99).toFixed(1)}`,
  );
  console.log(
    `ratio to event.person.print (a plain write): scans/s ${((ours.rate / print.rate) * 100).toFixed(1)}%, p99 ×${(ours.p99 / print.p99).toFixed(1)}`,
  );
  console.log(`exactly one first entry per attendee: answers ${exactlyOnce ? 'yes' : 'NO'} (${firsts.size} people), store ${storedOnce ? 'yes' : 'NO'} (${stored.rows[0].n} rows)`); // prettier-ignore
  console.log(`goal ≥ ${GOAL_RATE} scans/s: ${ours.rate >= GOAL_RATE ? 'met' : 'MISSED'}; p99 ≤ ${GOAL_P99_MS} ms: ${ours.p99 <= GOAL_P99_MS ? 'met' : 'MISSED'}`); // prettier-ignore
  if (!exactlyOnce || !storedOnce || ours.failed > 0) process.exitCode = 1;
} finally {
  server?.child.kill();
  bare?.child.kill();
  await store.drop();
}
