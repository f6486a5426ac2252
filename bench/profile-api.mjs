// bench/profile-api.mjs — a CPU profile of the platform answering one path under load, to see where
// the time of a call goes. The platform runs on core 0 with --cpu-prof, autocannon on core 1; the
// profile is summarized by self time (top functions) and written for Chrome DevTools.
// With --site, the public site answering the path instead (no page cache, as bench/site.mjs's cold
// render, on its data), and the process's CPU per request with each thread's share.
// Also the garbage collections of the measured load (V8 --trace-gc-nvp): scavenges, bytes promoted per
// request, mark-compacts.
// Usage: node bench/profile-api.mjs [--path /api/ping] [--duration 10] [--dir /tmp/podium-prof] [--site]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { pinSelf, startPinned, benchEnv, seedSiteBench } from './lib.mjs';

const { values } = parseArgs({
  options: {
    path: { type: 'string', default: '/api/ping' },
    duration: { type: 'string', default: '10' },
    dir: { type: 'string' },
    top: { type: 'string', default: '40' },
    // Profiles the bench's bare node:http server instead, answering the platform's bytes for the path.
    bare: { type: 'boolean', default: false },
    site: { type: 'boolean', default: false },
  },
});
pinSelf(1);
const dir = mkdtempSync(join(tmpdir(), 'podium-prof-'));
const profDir = values.dir ?? join(dir, 'prof');
const dbFile = join(dir, 'bench.db');
if (values.site) seedSiteBench(dbFile);
else
  execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], {
    env: { ...process.env, DATABASE_URL: `file:${dbFile}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
// --trace-gc-nvp: one line per collection on stdout, read back for the measured load (gcOf below).
const profiled = ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--trace-gc-nvp'];
const siteEnv = { SITE: '1', SITE_PORT: '0', SITE_PAGE_CACHE: '0', SITE_URL: 'http://site.bench.invalid' };
const env = { ...benchEnv(dbFile), ...(values.site ? siteEnv : {}) };
const platform = await startPinned(0, [...(values.bare ? [] : profiled), 'bin/podium.js', 'start'], env);
if (values.site) platform.port = await sitePort(platform);
let server = platform;
if (values.bare) {
  const bodiesFile = join(dir, 'bodies.json');
  const body = await (await fetch(`http://127.0.0.1:${platform.port}${values.path}`)).text();
  writeFileSync(bodiesFile, JSON.stringify({ [values.path]: body }));
  platform.child.kill();
  // The bare server has no SIGINT handler: ended by the signal alone it would write no profile.
  const onSigint = `data:text/javascript,process.once('SIGINT', () => process.exit(0))`;
  const args = [...profiled, `--import=${onSigint}`, 'bench/bare-server.mjs'];
  server = await startPinned(0, args, { BODIES_FILE: bodiesFile });
}
const url = `http://127.0.0.1:${server.port}${values.path}`;
// A page needs a few seconds for the JIT.
await autocannon({ url, duration: values.site ? 5 : 1, connections: 32 }); // warm-up
const before = threadTimes(server.child.pid);
const outputBefore = server.output().length;
const r = await autocannon({ url, duration: Number(values.duration), connections: 32 });
const after = threadTimes(server.child.pid);
const gc = gcOf(server.output().slice(outputBefore));
const perRequest = (ticks) => ((ticks * 10_000) / r.requests.total).toFixed(1);
for (const [thread, ticks] of after)
  if (ticks > (before.get(thread) ?? 0))
    console.log(`CPU ${perRequest(ticks - (before.get(thread) ?? 0))} µs/request: ${thread}`);
console.log(`${values.path}: ${r.requests.average.toFixed(0)} req/s, ${r.requests.total} requests`);
console.log(
  `GC: ${gc.scavenges} scavenges (${((gc.scavengeMs * 1000) / r.requests.total).toFixed(1)} µs pause and ` +
    `${(gc.promoted / 1024 / r.requests.total).toFixed(1)} KB promoted to the old generation per request), ` +
    `${gc.majors} mark-compacts (${((gc.majorMs * 1000) / r.requests.total).toFixed(1)} µs pause per request)`,
);
const exited = new Promise((resolve) => server.child.once('exit', resolve));
server.child.kill('SIGINT');
await exited;

/**
 * The collections V8 reported (--trace-gc-nvp) in a stretch of the server's output: scavenges with their
 * main-thread pause and the bytes they moved to the old generation (objects that outlived two of them),
 * and the full mark-compacts that free those again.
 */
function gcOf(text) {
  const gc = { scavenges: 0, scavengeMs: 0, promoted: 0, majors: 0, majorMs: 0 };
  for (const line of text.split('\n')) {
    const kind = / gc=(\w+)/.exec(line)?.[1];
    const pause = Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
    if (kind === 's') {
      gc.scavenges++;
      gc.scavengeMs += pause;
      gc.promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
    } else if (kind === 'mc') {
      gc.majors++;
      gc.majorMs += pause;
    }
  }
  return gc;
}

/** Each thread's CPU ticks (user + system, 10 ms) so far, by "tid name" (Linux /proc). */
function threadTimes(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    out.set(`${tid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`, Number(f[11]) + Number(f[12]));
  }
  return out;
}

/** The site's port, from the line the platform prints when the site listens. */
async function sitePort(started) {
  for (;;) {
    const m = /Podium site listening on http:\/\/[^:]+:(\d+)/.exec(started.output());
    if (m) return Number(m[1]);
    await new Promise((resolve) => globalThis.setTimeout(resolve, 50));
  }
}

const file = join(
  profDir,
  readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')),
);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => {
  const f = n.callFrame;
  const where = f.url ? ` ${f.url.replace(/^.*\/(node_modules\/|src\/)/, '$1')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${where}`;
};
const self = new Map();
const inclusive = new Map();
let total = 0;
let idle = 0;
const dt = profile.timeDeltas;
// Only the measured load: the last `duration` seconds before the stop (start-up and warm-up left out).
const stamps = [];
for (let i = 0, at = profile.startTime; i < dt.length; i++) stamps.push((at += dt[i]));
const from = profile.endTime - Number(values.duration) * 1e6;
for (let i = 0; i < profile.samples.length; i++) {
  if (stamps[i] < from) continue;
  const t = dt[i + 1] ?? 0; // a sample's time is the gap to the next one
  total += t;
  const leaf = byId.get(profile.samples[i]);
  if (leaf.callFrame.functionName === '(idle)') idle += t;
  self.set(name(leaf), (self.get(name(leaf)) ?? 0) + t);
  const seen = new Set();
  for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
    const k = name(byId.get(id));
    if (!seen.has(k)) inclusive.set(k, (inclusive.get(k) ?? 0) + t);
    seen.add(k);
  }
}
const n = r.requests.total;
const us = (v) => (v / n).toFixed(2).padStart(6);
console.log(
  `profile ${file}\n${(total / 1e6).toFixed(1)} s sampled; per request: ${us(total - idle)} µs busy, ${us(idle)} µs idle`,
);
console.log('\nself time per request');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`${((v / total) * 100).toFixed(1).padStart(5)}%  ${us(v)} µs  ${k}`);
console.log('\ninclusive time per request, our code');
for (const [k, v] of [...inclusive]
  .filter(([k]) => k.includes(' src/'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, 25))
  console.log(`${((v / total) * 100).toFixed(1).padStart(5)}%  ${us(v)} µs  ${k}`);
