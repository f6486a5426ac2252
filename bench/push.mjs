// bench/push.mjs — push.subscribe at scale (issue 13; docs/push.md): N subscribers (default 2,000) hold a
// stream on one event of one `podium start` process (PostgreSQL store, core 0); the load generator (core 1)
// renames one session E times (default 100) and times, for each edit, how long after the write's answer
// (the commit) the first, median and LAST subscriber hear its activity/edit message. Prints p50/p99 over
// the edits of the time to the last subscriber (goal p99 ≤ 500 ms) and the server's memory per idle
// subscriber (goal ≤ 20 KB): its resident set (VmRSS) with the N streams open less before they were
// opened, over N, each read after a full GC in the server (bench/memory-probe.mjs, preloaded: V8's last
// resort GC, which also shrinks the young generation), the stream path warmed first by 200 streams
// opened and closed (bench/lib.mjs streamMemory). The same is measured, in the same run, of a bare
// node:http server holding the same streams (bench/sse-floor.mjs), and our figures printed as ratios to
// it; heap + external per subscriber (steadier than the resident set) is printed too, and both again
// over the second N/2 alone ("one more": the marginal cost, without what the first streams took once).
// Usage: npm run bench:push [-- --subscribers 2000 --edits 100]
// The store is a fresh schema of BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), dropped at
// the end. Subscribers are raw HTTP/1.1 sockets (one connection each), read by a minimal parser.
import { performance } from 'node:perf_hooks';
import { URLSearchParams } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout } from 'node:timers';
import { benchEnv, pgSchema, pinSelf, PROBE_ARGS, seedDemo, startPinned, streamMemory } from './lib.mjs';
import { startFloor } from './sse-floor.mjs';

const { values } = parseArgs({
  options: { subscribers: { type: 'string', default: '2000' }, edits: { type: 'string', default: '100' } },
});
const N = Number(values.subscribers);
const EDITS = Number(values.edits);
const GOAL_P99_MS = 500;
const GOAL_KB = 20;
const TIMEOUT_MS = 10_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Prints rows of cells in aligned columns. */
function table(lines) {
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const l of lines) console.log(l.map((c, i) => c.padEnd(widths[i])).join('  '));
}
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

pinSelf(1);
const store = await pgSchema();
const env = {
  ...benchEnv('unused'),
  DATABASE_URL: store.url,
  JOBS_WORK: '0',
  STREAM_MAX_PER_ADDRESS: String(N + 10),
  STREAM_MAX: String(N + 10),
};
let server;
let sockets = [];
try {
  // The floor first, alone on core 0: Node's own cost of the same idle streams.
  const floorServer = await startFloor(0);
  let floor;
  try {
    floor = await streamMemory(floorServer.child, floorServer.url, N);
    for (const s of floor.streams) s.destroy();
  } finally {
    floorServer.child.kill();
  }
  const { eventID, username, password } = seedDemo(env);
  server = await startPinned(0, [...PROBE_ARGS, 'bin/podium.js', 'start'], env, { ipc: true });
  const base = `http://127.0.0.1:${server.port}`;
  const json = async (res) => {
    const text = await res.text();
    if (!text.startsWith('{')) throw new Error(text);
    return JSON.parse(text).data;
  };
  const post = (path, body) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    }).then(json);
  const [{ tokenID }] = await post(`/person/signIn?username=${encodeURIComponent(username)}`, { password });
  const [{ activityID }] = await json(await fetch(`${base}/activity/find?eventID=${eventID}&limit=1`));

  // Warm the process (the first calls compile); streamMemory warms the stream path itself.
  for (let i = 0; i < 20; i++) await json(await fetch(`${base}/event/get?eventID=${eventID}`));

  // heard[changeID] = the times (performance.now()) each subscriber heard it.
  const heard = new Map();
  const reader = () => {
    let buffer = '';
    return (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(block);
        if (id && block.includes('event: activity/edit')) {
          const at = performance.now();
          const list = heard.get(id[1]) ?? [];
          list.push(at);
          heard.set(id[1], list);
        }
      }
    };
  };
  const url = `${base}/push/subscribe?eventID=${eventID}&channels=activity/edit`;
  const ours = await streamMemory(server.child, url, N, reader);
  sockets = ours.streams;

  const toLast = [];
  const toMedian = [];
  const toFirst = [];
  let missed = 0;
  /** The change ids of the edits already measured. */
  const measured = new Set();
  for (let i = 0; i < EDITS; i++) {
    const rows = await post(`/activity/edit?tokenID=${tokenID}&activityID=${activityID}&key=name`, {
      value: `Bench ${i} ${Date.now()}`,
    });
    const committed = performance.now();
    if (!rows.length) throw new Error('activity.edit answered nothing');
    // The change id of this edit is not in its answer: it is the one id heard and not yet measured.
    let id;
    while (performance.now() - committed < TIMEOUT_MS) {
      id = [...heard.keys()].find((k) => !measured.has(k));
      if (id && heard.get(id).length >= N) break;
      await sleep(5);
    }
    const times = (id && heard.get(id)) || [];
    if (times.length < N) missed++;
    const sorted = times.map((t) => t - committed).sort((a, b) => a - b);
    toFirst.push(sorted[0] ?? Infinity);
    toMedian.push(pct(sorted, 50) ?? Infinity);
    toLast.push(times.length < N ? Infinity : sorted.at(-1));
    if (id) measured.add(id);
    await sleep(100);
  }

  const f = (v) => (Number.isFinite(v) ? v.toFixed(1) : '∞');
  const row = (label, xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return [label, f(pct(s, 50)), f(pct(s, 99)), f(s.at(-1))];
  };
  console.log(
    `${N} subscribers on one event (push.subscribe, activity/edit), ${EDITS} edits; one process on core 0, PostgreSQL store:`,
  );
  const lines = [
    ['ms from the commit until', 'p50', 'p99', 'max'],
    row('the first subscriber heard it', toFirst),
    row('the median subscriber', toMedian),
    row('the last subscriber', toLast),
  ];
  table(lines);
  const mb = (bytes) => (bytes / 1048576).toFixed(1);
  console.log(
    `opened ${N} streams in ${ours.openedMs.toFixed(0)} ms; server resident set after a full GC ${mb(ours.before.rss)} MB ` +
      `before, ${mb(ours.after.rss)} MB with them idle:`,
  );
  const cells = (m) => [m.all.rss, m.all.heap, m.marginal.rss, m.marginal.heap].map((v) => v.toFixed(1));
  const ratio = (f) => (f(ours) / f(floor)).toFixed(2);
  table([
    ['KB per idle subscriber', 'resident', 'heap + external', 'one more: resident', 'heap + external'],
    ['podium (push.subscribe)', ...cells(ours)],
    ['bare node:http SSE (floor)', ...cells(floor)],
    [
      'ratio to the floor',
      ratio((m) => m.all.rss),
      ratio((m) => m.all.heap),
      ratio((m) => m.marginal.rss),
      ratio((m) => m.marginal.heap),
    ],
  ]);
  const perSubscriber = ours.all.rss;
  const p99 = pct(
    [...toLast].sort((a, b) => a - b),
    99,
  );
  const metLatency = p99 <= GOAL_P99_MS && missed === 0;
  const metMemory = perSubscriber <= GOAL_KB;
  console.log(
    `p99 to the last subscriber ${f(p99)} ms: ${metLatency ? 'met' : 'MISSED'} ≤ ${GOAL_P99_MS} ms` +
      (missed ? ` (${missed} edits not heard by all within ${TIMEOUT_MS} ms)` : '') +
      `; ${perSubscriber.toFixed(1)} KB per idle subscriber: ${metMemory ? 'met' : 'MISSED'} ≤ ${GOAL_KB} KB`,
  );
  process.exitCode = metLatency && metMemory ? 0 : 1;
} finally {
  for (const s of sockets) s.destroy();
  server?.child.kill();
  await store.drop();
}
