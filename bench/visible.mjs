// bench/visible.mjs — how long an edit through one API process takes to be read through another (issue
// 11, "Backbone"; docs/deploy.md): two `podium start` processes (API only, no jobs) on one PostgreSQL
// store, their caches following the change bus (Redis pub/sub, or PostgreSQL LISTEN/NOTIFY with
// --bus pg). N times: B reads the event (so it holds the old answer cached), A renames it, then B's
// public event.get is read until it shows the new name. Prints p50/p95/p99 from A's answer (the write
// committed) and from the edit's request; goal p99 ≤ 1 s. A runs on core 0, B on core 1.
// Usage: npm run bench:visible [-- --edits 200 --bus redis|pg]
// The store is a fresh schema of BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), dropped
// at the end; Redis is BENCH_REDIS_URL (default redis://127.0.0.1:6379).
import { performance } from 'node:perf_hooks';
import { URLSearchParams } from 'node:url';
import { parseArgs } from 'node:util';
import { benchEnv, pgSchema, seedDemo, startPinned } from './lib.mjs';

const { values } = parseArgs({
  options: { edits: { type: 'string', default: '200' }, bus: { type: 'string', default: 'redis' } },
});
const edits = Number(values.edits);
if (!['redis', 'pg'].includes(values.bus)) throw new Error('--bus is redis or pg');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GOAL_MS = 1000;
const TIMEOUT_MS = 5000;

const store = await pgSchema();
const url = store.url;

const env = {
  ...benchEnv('unused'),
  DATABASE_URL: url,
  ...(values.bus === 'redis' ? { REDIS_URL } : {}),
  // Jobs are not what is measured: these processes only add them.
  JOBS_WORK: '0',
};
const children = [];
try {
  const { eventID, username, password } = seedDemo(env);

  const a = await startPinned(0, ['bin/podium.js', 'start'], env);
  children.push(a.child);
  const b = await startPinned(1, ['bin/podium.js', 'start'], env);
  children.push(b.child);
  const A = `http://127.0.0.1:${a.port}`;
  const B = `http://127.0.0.1:${b.port}`;

  const json = async (res) => {
    const text = await res.text();
    if (!text.startsWith('{')) throw new Error(text);
    return JSON.parse(text).data;
  };
  const post = (base, path, body) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    }).then(json);
  const [{ tokenID }] = await post(A, `/person/signIn?username=${encodeURIComponent(username)}`, { password });
  const nameThroughB = async () => (await json(await fetch(`${B}/event/get?eventID=${eventID}`)))[0].name;

  const fromAnswer = [];
  const fromRequest = [];
  let missed = 0;
  for (let i = 0; i < edits; i++) {
    await nameThroughB(); // B holds the old answer
    const value = `Visible ${i} ${Date.now()}`;
    const sent = performance.now();
    await post(A, `/event/edit?tokenID=${tokenID}&eventID=${eventID}&key=name`, { value });
    const answered = performance.now();
    let seen = false;
    while (performance.now() - answered < TIMEOUT_MS) {
      if ((await nameThroughB()) === value) {
        seen = true;
        break;
      }
    }
    const now = performance.now();
    if (!seen) missed++;
    fromAnswer.push(seen ? now - answered : Infinity);
    fromRequest.push(seen ? now - sent : Infinity);
  }

  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const line = (label, xs) => {
    const s = [...xs].sort((x, y) => x - y);
    const f = (v) => (Number.isFinite(v) ? v.toFixed(1) : '∞');
    return [label, f(pct(s, 50)), f(pct(s, 95)), f(pct(s, 99)), f(s.at(-1))];
  };
  const bus = values.bus === 'redis' ? 'Redis pub/sub' : 'PostgreSQL LISTEN/NOTIFY';
  console.log(`${edits} edits through A, read through B (PostgreSQL store, ${bus} bus):`);
  const rows = [
    ['ms until B reads the edit', 'p50', 'p95', 'p99', 'max'],
    line('from A’s answer', fromAnswer),
    line('from the edit’s request', fromRequest),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  const p99 = pct(
    [...fromRequest].sort((x, y) => x - y),
    99,
  );
  const met = p99 <= GOAL_MS && missed === 0;
  console.log(
    `p99 from the request ${Number.isFinite(p99) ? p99.toFixed(1) : '∞'} ms: ${met ? 'met' : 'MISSED'} ≤ ${GOAL_MS} ms` +
      (missed ? ` (${missed} edits not read within ${TIMEOUT_MS} ms)` : ''),
  );
  process.exitCode = met ? 0 : 1;
} finally {
  for (const child of children) child.kill();
  await store.drop();
}
