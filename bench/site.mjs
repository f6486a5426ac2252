// bench/site.mjs — the public site against a bare node:http server, in one run (issue "Public event
// website"). The site serves the hotsite and the schedule of a 300-activity event; the bare server
// answers the very same bytes from memory (the limit). Server processes run on core 0, the load
// generator on core 1. Three ways the site answers:
// - cold render: no page cache (SITE_PAGE_CACHE=0): every request renders (platform answers reused for
//   at most SITE_DATA_FRESH_MS, 1 s; a second run with 0 shows every render reading the platform);
// - production: the page cache in front of the renderer (re-checked against the platform's answers);
// - revalidation: If-None-Match with the page's ETag → 304 (the limit: a bare server answering 304).
// The renders are measured in `podium start` (the API in the same process); the page cache's answers
// both in `podium site` (the site's own process, reading a platform process) and in `podium start`.
// Prints req/s, p50/p99 and each ratio to the limit with its goal, and each server's CPU time per answer
// with the bare server's over it (the CPU ratio: the throughput ratio of a quiet machine, steadier on a
// shared one); and, for the record, the CPU of the cheapest answer Astro's adapter gives (/_podium/health).
// With --rounds N (odd), each scenario is measured N times between runs of the bare server and the
// median round is shown: the figures to quote on a shared machine, where one run can be disturbed.
// Usage: npm run bench:site [-- --duration 5 --rounds 3]
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { pinSelf, report, seedSiteBench } from './lib.mjs';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '1' } },
});
const duration = Number(values.duration);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds takes a whole number from 1 (got ${values.rounds})`);
pinSelf(1);

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Starts `node args…` on core 0 and resolves with the ports of each line matching `patterns`. */
function start(args, env, patterns) {
  const cmd = hasTaskset ? 'taskset' : process.execPath;
  const argv = hasTaskset ? ['-c', '0', process.execPath, ...args] : args;
  const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const ports = patterns.map((p) => p.exec(out)?.[1]);
      if (ports.every(Boolean)) resolve({ child, ports: ports.map(Number) });
    });
  });
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 10 ms ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * req/s and latency of `seconds` of load, and the server's CPU time per answer (`pid`): throughput moves
 * with whatever else the machine runs, CPU per answer much less, so its ratio to the bare server's is
 * the steadier figure on a shared machine (on a quiet one the two ratios agree).
 */
async function load(url, pid, headers = {}, expect = 200, seconds = duration) {
  const cpuBefore = cpuMs(pid);
  const r = await autocannon({ url, duration: seconds, connections: 32, pipelining: 1, headers });
  const cpu = (cpuMs(pid) - cpuBefore) / r.requests.total;
  const ok = expect === 304 ? r['3xx'] : r['2xx'];
  const bad = r.requests.total - ok + r.errors + r.timeouts;
  if (bad > 32) {
    const seen = `2xx ${r['2xx']}, 3xx ${r['3xx']}, 4xx ${r['4xx']}, 5xx ${r['5xx']}, errors ${r.errors}, timeouts ${r.timeouts}`;
    throw new Error(`${url}: ${bad} unexpected answers of ${r.requests.total} (${seen})`);
  }
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpu };
}

const dir = mkdtempSync(join(tmpdir(), 'podium-bench-site-'));
const dbFile = join(dir, 'bench.db');
seedSiteBench(dbFile);
// Builds the site once, before anything is timed.
execFileSync(
  process.execPath,
  ['--input-type=module', '-e', "await (await import('./src/site/build.ts')).ensureBuilt(process.cwd())"],
  {
    stdio: 'inherit',
  },
);

const common = {
  DATABASE_URL: `file:${dbFile}`,
  API_PORT: '0',
  SITE_PORT: '0',
  LOG_LEVEL: 'warn',
  SEED_DEMO: '0',
  // The load generator is one address: the per-client limits would measure the limiter, not the site.
  RATE_LIMIT_CLIENT: '100000000',
  RATE_LIMIT_TOKEN: '100000000',
  // Fixed addresses, so every site process renders the same bytes (ports are picked at random).
  SITE_URL: 'http://site.bench.invalid',
  PUBLIC_API_URL: 'http://api.bench.invalid',
  // One key for every process: a site in its own process calls its platform as `podium start`'s does.
  SITE_API_KEY: randomBytes(32).toString('base64url'),
};
const SITE_LINE = /Podium site listening on http:\/\/[^:]+:(\d+)/;
const API_LINE = /Podium API listening on http:\/\/[^:]+:(\d+)/;
const pages = [
  { name: 'hotsite', path: '/demo/program-300' },
  { name: 'schedule', path: '/demo/program-300/schedule' },
];

const processes = [];
try {
  const cold = await start(['bin/podium.js', 'start'], { ...common, SITE_PAGE_CACHE: '0' }, [SITE_LINE]);
  processes.push(cold.child);
  const coldUrl = `http://127.0.0.1:${cold.ports[0]}`;
  // The bodies (and ETags) as the site serves them.
  const bodies = {};
  const etags = {};
  for (const p of pages) {
    const res = await fetch(coldUrl + p.path);
    if (res.status !== 200) throw new Error(`${p.path}: ${res.status}`);
    const headers = {};
    for (const [k, v] of res.headers)
      if (!['date', 'connection', 'keep-alive', 'content-length'].includes(k)) headers[k] = v;
    bodies[p.path] = { body: await res.text(), headers };
  }
  const bodiesFile = join(dir, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  // The limit: the same bytes and headers from memory (Buffers), or a 304 when If-None-Match is sent.
  const bare = await start(
    [
      '--input-type=module',
      '-e',
      `import { readFileSync } from 'node:fs';
       import { createServer } from 'node:http';
       const pages = JSON.parse(readFileSync(process.env.BODIES_FILE, 'utf8'));
       const bytes = {};
       for (const [path, p] of Object.entries(pages)) bytes[path] = { body: Buffer.from(p.body), headers: p.headers };
       const s = createServer((req, res) => {
         const p = bytes[req.url];
         if (!p) { res.writeHead(404); res.end(); return; }
         if (req.headers['if-none-match'] === p.headers.etag) {
           res.writeHead(304, { etag: p.headers.etag, 'cache-control': p.headers['cache-control'], vary: p.headers.vary });
           res.end();
           return;
         }
         res.writeHead(200, { ...p.headers, 'content-length': p.body.length });
         res.end(p.body);
       });
       s.listen(0, '127.0.0.1', () => console.log('listening ' + s.address().port));`,
    ],
    { BODIES_FILE: bodiesFile },
    [/listening (\d+)/],
  );
  processes.push(bare.child);
  const bareUrl = `http://127.0.0.1:${bare.ports[0]}`;

  const rows = [];
  const measure = async (name, url, pid, goal, limitUrl, headers = {}, expect = 200) => {
    await load(url, pid, headers, expect, Math.max(5, duration)); // warm-up (the JIT needs a few seconds of a big page)
    // Each round is the limit, the site, the limit again (the better limit counts); the round shown is
    // the median by ratio, so one disturbed run of a few seconds neither makes nor misses a goal.
    const runs = [];
    for (let round = 0; round < rounds; round++) {
      const before = await load(limitUrl, bare.child.pid, headers, expect);
      const measured = await load(url, pid, headers, expect);
      const after = await load(limitUrl, bare.child.pid, headers, expect);
      const limit = before.rps >= after.rps ? before : after;
      runs.push({ measured, limit, cpuBase: Math.min(before.cpu, after.cpu), ratio: measured.rps / limit.rps });
    }
    const { measured, limit, cpuBase } = runs.sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds / 2)];
    rows.push({ name: `bare node:http, ${name.split(':')[0]} bytes`, ...limit });
    rows.push({ name, ...measured, base: limit.rps, cpuBase, goal });
  };

  for (const p of pages) {
    await measure(`${p.name}: cold render (no page cache)`, coldUrl + p.path, cold.child.pid, 0.05, bareUrl + p.path);
  }
  // For the record: the cheapest answer through Astro's adapter (an endpoint answering `ok`, no page, no
  // platform call) against the bare server's hotsite: a ceiling on what any rendered page can reach.
  const hotsiteBare = rows[0];
  const floor = await load(`${coldUrl}/_podium/health`, cold.child.pid);
  rows.push({ name: 'the floor: /_podium/health through the adapter', ...floor, cpuBase: hotsiteBare.cpu });
  cold.child.kill();
  // For the record: no page cache and no reuse of platform answers (each render reads the platform).
  const raw = await start(['bin/podium.js', 'start'], { ...common, SITE_PAGE_CACHE: '0', SITE_DATA_FRESH_MS: '0' }, [
    SITE_LINE,
  ]);
  processes.push(raw.child);
  for (const p of pages) {
    await measure(
      `${p.name}: cold, every render reads the platform`,
      `http://127.0.0.1:${raw.ports[0]}${p.path}`,
      raw.child.pid,
      undefined,
      bareUrl + p.path,
    );
  }
  raw.child.kill();

  /** The page cache's two answers, production (200) and revalidation (304), of a site on `url` (`pid`). */
  const cached = async (url, pid, where) => {
    for (const p of pages) {
      const res = await fetch(url + p.path);
      etags[p.path] = res.headers.get('etag');
      if ((await res.text()) !== bodies[p.path].body)
        throw new Error(`${p.path}: the cached page differs from the rendered one`);
    }
    for (const p of pages) {
      await measure(`${p.name}: production (page cache), ${where}`, url + p.path, pid, 0.5, bareUrl + p.path);
    }
    for (const p of pages) {
      const inm = { 'if-none-match': etags[p.path] };
      await measure(`${p.name}: 304 revalidation, ${where}`, url + p.path, pid, 0.8, bareUrl + p.path, inm, 304);
    }
  };
  // The site as a process of its own (`podium site`), reading a platform process (SITE=0) over HTTP.
  const platform = await start(['bin/podium.js', 'start'], { ...common, SITE: '0' }, [API_LINE]);
  processes.push(platform.child);
  const alone = await start(
    ['bin/podium.js', 'site'],
    { ...common, SITE_PAGE_CACHE: '1', PODIUM_API_URL: `http://127.0.0.1:${platform.ports[0]}` },
    [SITE_LINE],
  );
  processes.push(alone.child);
  await cached(`http://127.0.0.1:${alone.ports[0]}`, alone.child.pid, 'podium site');
  alone.child.kill();
  platform.child.kill();
  // The same answers from `npm start`'s one process, where the site shares its process (and so Node's
  // own HTTP code, and the CPU caches) with the API. Both ways of deploying the site have the same goals.
  const prod = await start(['bin/podium.js', 'start'], { ...common, SITE_PAGE_CACHE: '1' }, [SITE_LINE]);
  processes.push(prod.child);
  await cached(`http://127.0.0.1:${prod.ports[0]}`, prod.child.pid, 'podium start');
  console.log(
    `\n${rounds > 1 ? `Each row: the median of ${rounds} rounds (bare, site, bare). ` : ''}Pages: hotsite ${Buffer.byteLength(bodies[pages[0].path].body)} bytes, schedule ${Buffer.byteLength(bodies[pages[1].path].body)} bytes (300 activities).`,
  );
  const met = report(rows);
  process.exitCode = met ? 0 : 1;
} finally {
  for (const c of processes) c.kill();
}
