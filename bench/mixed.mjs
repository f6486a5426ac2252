// bench/mixed.mjs — a registration rush on one event must not slow every other event's site (issue 11,
// "Mixed load"): the public programs of 20 events are read as fast as the load generator can, alone and
// then while a 21st event takes 200 registrations/s, against a control of as many pings (see `control`),
// alternately for `rounds` rounds; prints the rates,
// the platform's CPU use, and the median ratio (goal ≥ 80%). The platform runs on core 0, the load
// generators on core 1.
// Usage: npm run bench:mixed [-- --duration 5 --rate 200 --connections 32 --store sqlite|pg --rounds 3]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchEnv, paced, pgSchema, pinSelf, registrations, startPinned } from './lib.mjs';
import { performance } from 'node:perf_hooks';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '32' },
    store: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '3' },
  },
});
if (!['sqlite', 'pg'].includes(values.store)) throw new Error('--store is sqlite or pg');
const duration = Number(values.duration);
const rate = Number(values.rate);
const rounds = Number(values.rounds);
pinSelf(1);

const pgStore = values.store === 'pg' ? await pgSchema() : undefined;
const dbUrl = pgStore?.url ?? `file:${join(mkdtempSync(join(tmpdir(), 'podium-bench-')), 'bench.db')}`;
const env = { ...process.env, DATABASE_URL: dbUrl, PROGRAMS: '20' };
execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], { env, stdio: 'ignore' });
const events = JSON.parse(execFileSync(process.execPath, ['bench/seed-bench.mjs'], { env, encoding: 'utf8' }));
const platform = await startPinned(0, ['bin/podium.js', 'start'], { ...benchEnv('unused'), DATABASE_URL: dbUrl });
const api = `http://127.0.0.1:${platform.port}`;

/** Reads of the 20 programs, one after the other on each connection, for `duration` seconds. */
const reads = () =>
  autocannon({
    url: api,
    duration,
    connections: Number(values.connections),
    requests: events.programs.map((eventID) => ({
      method: 'GET',
      path: `/activity/find?eventID=${eventID}&limit=100`,
    })),
  });

/**
 * form.respondRegistration into the signup event at `rate` per second, a new e-mail each — paced, not a
 * second autocannon: one on the same core took about a quarter of the read generator's own rate (200
 * pings a second, which cost the platform nothing, "slowed" the reads to 73-78%).
 */
const rush = () => paced(api, { rate, duration, next: registrations(events.signup, 'rush') });
/**
 * The control: as many requests at the same pace, each costing the platform nothing (api.ping). On a
 * 2-core machine the read generator fills its core, so any second load there slows it — 200 pings a
 * second took 12-26% of the reads. Against this control, the one difference is the registrations' work.
 */
const control = () => paced(api, { rate, duration, next: () => ({ path: '/api/ping', method: 'GET' }) });

const failed = (r) => r.non2xx + r.errors + r.timeouts;
/** CPU seconds the platform process has used (utime + stime, Linux /proc). */
const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
/** Runs `phase`, answering its result and the platform's CPU use meanwhile (1 = one core, busy throughout). */
async function busy(phase) {
  const cpu = cpuOf(platform.child.pid);
  const started = performance.now();
  const result = await phase();
  return { result, load: (cpuOf(platform.child.pid) - cpu) / ((performance.now() - started) / 1000) };
}
try {
  // Warm-up: every program read for a whole run (the first seconds of a process run slower: JIT, caches).
  await reads();
  // The control and the rush alternate, `rounds` times, ending with the control: each rush run is
  // compared with the mean of the control runs around it, and the median of those ratios is the figure.
  // The machine drifts (other load, warm-up) by up to a quarter from one run to the next here; a single
  // pair measured that, not the writes.
  const ratios = [];
  const rawRatios = [];
  const lonely = await busy(reads);
  let before = await busy(() => Promise.all([reads(), control()]));
  const lines = [
    `reads alone: ${lonely.result.requests.average.toFixed(0)} req/s (platform CPU ${lonely.load.toFixed(2)})`,
  ];
  for (let round = 0; round < rounds; round++) {
    const mixed = await busy(() => Promise.all([reads(), rush()]));
    const after = await busy(() => Promise.all([reads(), control()]));
    const [reading, writes] = mixed.result;
    const controlRate = (before.result[0].requests.average + after.result[0].requests.average) / 2;
    ratios.push(reading.requests.average / controlRate);
    rawRatios.push(reading.requests.average / lonely.result.requests.average);
    lines.push(
      `round ${round + 1}: with ${rate} pings/s ${controlRate.toFixed(0)} req/s (platform CPU ${before.load.toFixed(2)}/${after.load.toFixed(2)}),` +
        ` with ${rate} registrations/s ${reading.requests.average.toFixed(0)} req/s (CPU ${mixed.load.toFixed(2)}, p99 ${reading.latency.p99} ms;` +
        ` registrations ${writes.perSecond.toFixed(0)}/s, p99 ${writes.p99.toFixed(0)} ms) → ${(ratios[round] * 100).toFixed(1)}%` +
        ` (${(rawRatios[round] * 100).toFixed(1)}% of the reads alone)`,
    );
    const misses = [before, mixed, after].reduce((n, run) => n + failed(run.result[0]) + run.result[1].failed, 0);
    if (misses > 0) throw new Error('some requests failed');
    before = after;
  }
  for (const line of lines) console.log(line);
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const ratio = median(ratios);
  console.log(
    `against the reads alone (the generator's core shared too): median ${(median(rawRatios) * 100).toFixed(1)}%`,
  );
  console.log(
    `reads of 20 programs kept, median of ${rounds}: ${(ratio * 100).toFixed(1)}% — ${ratio >= 0.8 ? 'met' : 'MISSED'} ≥ 80%`,
  );
  process.exitCode = ratio >= 0.8 ? 0 : 1;
} finally {
  platform.child.kill();
  await new Promise((r) => platform.child.once('exit', r));
  await pgStore?.drop();
}
