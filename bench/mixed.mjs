// bench/mixed.mjs — a registration rush on one event must not slow every other event's site (issue 11,
// "Mixed load"): the public programs of 20 events are read as fast as the load generator can, alone and
// then while a 21st event takes 200 registrations/s; prints both read rates and their ratio (goal ≥ 80%).
// The platform runs on core 0, the load generators on core 1.
// Usage: npm run bench:mixed [-- --duration 5 --rate 200 --connections 32 --store sqlite|pg]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchEnv, pgSchema, pinSelf, startPinned, registrationRequest } from './lib.mjs';
import { performance } from 'node:perf_hooks';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '32' },
    store: { type: 'string', default: 'sqlite' },
  },
});
if (!['sqlite', 'pg'].includes(values.store)) throw new Error('--store is sqlite or pg');
const duration = Number(values.duration);
const rate = Number(values.rate);
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

/** form.respondRegistration into the signup event at `rate` per second, a new e-mail each. */
const registrations = () =>
  autocannon({
    url: `${api}/form/respondRegistration?eventID=${events.signup}`,
    duration,
    connections: 8,
    overallRate: rate,
    requests: [registrationRequest('rush')],
  });

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
  await autocannon({ url: `${api}/activity/find?eventID=${events.programs[0]}&limit=100`, duration: 1 }); // warm-up
  // Alone before and after the mixed run, averaged: the process keeps warming up (JIT, caches) during
  // the first runs, and a ratio against the first run alone would credit the mixed run with that.
  const { result: before, load: loadBefore } = await busy(reads);
  const {
    result: [mixed, writes],
    load: loadMixed,
  } = await busy(() => Promise.all([reads(), registrations()]));
  const { result: after, load: loadAfter } = await busy(reads);
  // Below 1 the platform waited for the load generator: the ratio then measures the generator.
  console.log(
    `platform CPU (cores): alone ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}, mixed ${loadMixed.toFixed(2)}`,
  );
  const aloneRate = (before.requests.average + after.requests.average) / 2;
  const ratio = mixed.requests.average / aloneRate;
  console.log(
    `reads of 20 programs alone:           ${aloneRate.toFixed(0)} req/s (before ${before.requests.average.toFixed(0)}, after ${after.requests.average.toFixed(0)}), p99 ${Math.max(before.latency.p99, after.latency.p99)} ms`,
  );
  console.log(
    `with ${rate} registrations/s into a 21st: ${mixed.requests.average.toFixed(0)} req/s, p99 ${mixed.latency.p99} ms` +
      ` (registrations: ${(writes['2xx'] / duration).toFixed(0)}/s, p99 ${writes.latency.p99} ms)`,
  );
  console.log(`ratio ${(ratio * 100).toFixed(1)}% — ${ratio >= 0.8 ? 'met' : 'MISSED'} ≥ 80%`);
  if (failed(before) + failed(after) + failed(mixed) + failed(writes) > 0) throw new Error('some requests failed');
  process.exitCode = ratio >= 0.8 ? 0 : 1;
} finally {
  platform.child.kill();
  await new Promise((r) => platform.child.once('exit', r));
  await pgStore?.drop();
}
