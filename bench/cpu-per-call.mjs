// bench/cpu-per-call.mjs — CPU time per call of the platform and of the bare node:http server answering
// the same bytes, alternately under the same load. Throughput ratios move with whatever else runs on the
// machine; the CPU a server spends per answer moves much less, so this tells a change in our own
// per-call work apart from noise. Reads utime+stime from /proc (Linux).
// --base <dir>: also a platform started from another checkout (e.g. a worktree of an older commit),
// measured in the same rounds, to compare two versions of our code under the same conditions.
// Usage: node bench/cpu-per-call.mjs [--path /api/ping] [--duration 3] [--rounds 3] [--base <dir>]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { pinSelf, startPinned, benchEnv } from './lib.mjs';

const { values } = parseArgs({
  options: {
    path: { type: 'string', default: '/api/ping' },
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    base: { type: 'string' },
  },
});
pinSelf(1);
const dir = mkdtempSync(join(tmpdir(), 'podium-cpu-'));
const dbFile = join(dir, 'bench.db');
execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], {
  env: { ...process.env, DATABASE_URL: `file:${dbFile}` },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const startPlatform = (bin, db) => startPinned(0, [bin, 'start'], benchEnv(db));
let base;
if (values.base) {
  // Its own store, seeded by its own code: the two checkouts may not have the same migrations.
  execFileSync(process.execPath, [join(values.base, 'bin/podium.js'), 'seed', 'demo'], {
    env: { ...process.env, DATABASE_URL: `file:${join(dir, 'base.db')}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  base = await startPlatform(join(values.base, 'bin/podium.js'), join(dir, 'base.db'));
}
const platform = await startPlatform('bin/podium.js', dbFile);
const bodiesFile = join(dir, 'bodies.json');
const body = await (await fetch(`http://127.0.0.1:${platform.port}${values.path}`)).text();
writeFileSync(bodiesFile, JSON.stringify({ [values.path]: body }));
const bare = await startPinned(0, ['bench/bare-server.mjs'], { BODIES_FILE: bodiesFile });

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** CPU seconds (user + system) the process has used. */
function cpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

async function measure(server) {
  const url = `http://127.0.0.1:${server.port}${values.path}`;
  const before = cpu(server.child.pid);
  const client = process.cpuUsage();
  const started = performance.now();
  const r = await autocannon({ url, duration: Number(values.duration), connections: 32 });
  const used = cpu(server.child.pid) - before;
  const { user, system } = process.cpuUsage(client);
  const wall = (performance.now() - started) * 1000;
  // The load generator's share of its core: near 100%, it rather than the server sets the req/s.
  return { rps: r.requests.average, us: (used / r.requests.total) * 1e6, client: (user + system) / wall };
}

const us = (x) => x.toFixed(1).padStart(5);
const pct = (x) => `${(x * 100).toFixed(1)}%`;
try {
  await measure(bare); // warm-up
  await measure(platform);
  if (base) await measure(base);
  const rows = [];
  for (let i = 0; i < Number(values.rounds); i++) {
    const row = { b: await measure(bare), p: await measure(platform), o: base ? await measure(base) : undefined };
    rows.push(row);
    const line = (name, m) =>
      `  ${name} ${us(m.us)} µs/call, ${m.rps.toFixed(0).padStart(6)} req/s: cpu ratio ${pct(row.b.us / m.us)}, ` +
      `req/s ratio ${pct(m.rps / row.b.rps)} (load generator busy ${pct(m.client)})`;
    console.log(
      `round ${i + 1}: bare ${us(row.b.us)} µs/call, ${row.b.rps.toFixed(0)} req/s (load generator busy ${pct(row.b.client)})`,
    );
    console.log(line('platform', row.p));
    if (row.o) console.log(line('base    ', row.o));
  }
  const mean = (f) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
  const b = mean((r) => r.b.us);
  const p = mean((r) => r.p.us);
  console.log(`${values.path}: bare ${us(b)} µs/call; platform ${us(p)} µs/call, cpu ratio ${pct(b / p)}`);
  if (base) {
    const o = mean((r) => r.o.us);
    console.log(`${' '.repeat(values.path.length)}  base     ${us(o)} µs/call, cpu ratio ${pct(b / o)}`);
  }
} finally {
  platform.child.kill();
  bare.child.kill();
  base?.child.kill();
}
