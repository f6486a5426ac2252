// bench/site-hop.mjs — what the front thread (src/site/front.ts) costs the answers it does not make from
// the page cache. Two `podium start`s run at once on core 0, one with the page cache and so the front
// (SITE_PAGE_CACHE=1, the default), one without (=0: the renderer owns the port); autocannon on core 1.
// Each path is loaded on both in turns (3 s each, `rounds` rounds) and the process's CPU time per answer
// (user + system, /proc: steadier than req/s on a shared machine) is compared:
// - a built file (/_astro/*.css, brotli), which a first visit asks for several times;
// - a page never stored (a company that does not exist: 404), as a signed-in attendee's or a private
//   event's pages are;
// - /_podium/health, Astro's cheapest answer.
// Prints each round and the medians: the front's extra CPU per answer on each path.
// Usage: node bench/site-hop.mjs [rounds=5] [seconds=3]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchEnv, pinSelf, seedSiteBench } from './lib.mjs';

pinSelf(1);
const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'podium-bench-hop-'));
const dbFile = join(dir, 'bench.db');
seedSiteBench(dbFile);

/** `podium start` on core 0; resolves with its process and site port. */
function start(pageCache) {
  const env = {
    ...process.env,
    ...benchEnv(dbFile),
    SITE: '1',
    SITE_PORT: '0',
    SITE_PAGE_CACHE: pageCache ? '1' : '0',
    SITE_URL: 'http://site.bench.invalid',
  };
  const child = spawn('taskset', ['-c', '0', process.execPath, 'bin/podium.js', 'start'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`podium start exited ${code}: ${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Podium site listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve({ child, url: `http://127.0.0.1:${m[1]}` });
    });
  });
}

/** CPU time (user + system) of a process so far, in ms (Linux /proc; 10 ms ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** µs of the server's CPU per answer over `seconds` of load; throws on an unexpected status. */
async function cpuPerAnswer(server, path, headers, status) {
  const before = cpuMs(server.child.pid);
  const r = await autocannon({ url: server.url + path, duration: seconds, connections: 32, headers });
  const expected = status === 404 ? r['4xx'] : r['2xx'];
  if (r.requests.total - expected + r.errors + r.timeouts > 32) throw new Error(`${path}: unexpected answers`);
  return ((cpuMs(server.child.pid) - before) * 1000) / r.requests.total;
}

const servers = [];
try {
  const front = await start(true);
  servers.push(front.child);
  const direct = await start(false);
  servers.push(direct.child);
  const home = await (await fetch(`${front.url}/demo/program-300`)).text();
  const css = /href="(\/_astro\/[^"]+\.css)"/.exec(home)?.[1];
  if (!css) throw new Error('no stylesheet on the hotsite');
  const paths = [
    { name: `a built file (${css}, br)`, path: css, headers: { 'accept-encoding': 'br' }, status: 200 },
    { name: 'a page never stored (404)', path: '/no-such-company', headers: {}, status: 404 },
    { name: '/_podium/health', path: '/_podium/health', headers: {}, status: 200 },
  ];
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const p of paths) {
    // Warm-up of both (the JIT).
    await cpuPerAnswer(front, p.path, p.headers, p.status);
    await cpuPerAnswer(direct, p.path, p.headers, p.status);
    const withFront = [];
    const without = [];
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so a slow stretch of the machine falls on both.
      const order = round % 2 === 0 ? [front, direct] : [direct, front];
      for (const s of order)
        (s === front ? withFront : without).push(await cpuPerAnswer(s, p.path, p.headers, p.status));
    }
    const f = median(withFront);
    const d = median(without);
    console.log(`${p.name}`);
    console.log(
      `  rounds, µs CPU per answer: front ${withFront.map((x) => x.toFixed(0)).join(' ')}; direct ${without.map((x) => x.toFixed(0)).join(' ')}`,
    );
    console.log(
      `  median: front ${f.toFixed(0)} µs, direct ${d.toFixed(0)} µs, the front's extra ${(f - d).toFixed(0)} µs (${((100 * (f - d)) / d).toFixed(0)} %)`,
    );
  }
} finally {
  for (const c of servers) c.kill();
}
