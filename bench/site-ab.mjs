// bench/site-ab.mjs — cold renders of two builds of the site side by side, for a change's before/after
// on a shared machine where one run's figures move with the load: A is this tree, B another checkout
// with its own dist/ (e.g. `git worktree add /tmp/before <commit>`, built once with ensureBuilt). Both
// `podium start`s (SITE_PAGE_CACHE=0) and a bare node:http server sending A's bytes run at once on core
// 0; 3 s autocannon runs alternate A, bare, B (then B, bare, A) for `rounds` rounds; prints each run,
// the medians and each ratio to the bare server's median, and each server's CPU time per answer (user +
// system of the process over the run, /proc) with the bare server's over it — the CPU ratio, which
// moves much less than req/s with what else the machine runs. Seeds the same 300-activity event as
// bench/site.mjs.
// The steadiest figure on a busy machine is A's CPU per answer over B's in the same round (the two runs
// a few seconds apart see the same load): printed per round, with their median. Last, each build's CPU
// per answer of /_podium/health (the adapter's floor, as in bench/site.mjs).
// Usage: node bench/site-ab.mjs <other-tree> [path=/demo/program-300] [rounds=3] [seconds=3]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pinSelf, seedSiteBench } from './lib.mjs';
pinSelf(1);
const roots = { A: process.cwd(), B: process.argv[2] };
if (!roots.B) throw new Error('usage: node bench/site-ab.mjs <other-tree> [path] [rounds]');
const path = process.argv[3] ?? '/demo/program-300';
const rounds = Number(process.argv[4] ?? 3);
const seconds = Number(process.argv[5] ?? 3);
function start(args, env, re, cwd) {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (c) => reject(new Error('exit ' + c + out)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = re.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
  });
}
/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 10 ms ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
/** req/s of `s` seconds of load on `url`, and the CPU time per answer of the process `pid` serving it. */
async function load(url, pid, s = 3) {
  const before = cpuMs(pid);
  const r = await autocannon({ url, duration: s, connections: 32 });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, cpu: (cpuMs(pid) - before) / r.requests.total };
}
const dir = mkdtempSync(join(tmpdir(), 'podium-ab-'));
const dbFile = join(dir, 'bench.db');
seedSiteBench(dbFile);
const common = {
  DATABASE_URL: `file:${dbFile}`,
  API_PORT: '0',
  SITE_PORT: '0',
  LOG_LEVEL: 'warn',
  SEED_DEMO: '0',
  RATE_LIMIT_CLIENT: '100000000',
  RATE_LIMIT_TOKEN: '100000000',
  SITE_URL: 'http://site.bench.invalid',
  PUBLIC_API_URL: 'http://api.bench.invalid',
  SITE_PAGE_CACHE: '0',
};
const RE = /Podium site listening on http:\/\/[^:]+:(\d+)/;
const procs = [];
try {
  const urls = {};
  const pids = {};
  for (const [k, root] of Object.entries(roots)) {
    const s = await start([join(root, 'bin/podium.js'), 'start'], common, RE, root);
    procs.push(s.child);
    pids[k] = s.child.pid;
    urls[k] = `http://127.0.0.1:${s.port}${path}`;
  }
  const res = await fetch(urls.A);
  const body = await res.text();
  const headers = {};
  for (const [k, v] of res.headers)
    if (!['date', 'connection', 'keep-alive', 'content-length'].includes(k)) headers[k] = v;
  const bf = join(dir, 'b.json');
  writeFileSync(bf, JSON.stringify({ body, headers }));
  const bare = await start(
    [
      '--input-type=module',
      '-e',
      `import { readFileSync } from 'node:fs'; import { createServer } from 'node:http';
   const p = JSON.parse(readFileSync(process.env.BF, 'utf8')); const b = Buffer.from(p.body);
   const s = createServer((req, res) => { res.writeHead(200, { ...p.headers, 'content-length': b.length }); res.end(b); });
   s.listen(0, '127.0.0.1', () => console.log('listening ' + s.address().port));`,
    ],
    { BF: bf },
    /listening (\d+)/,
    process.cwd(),
  );
  procs.push(bare.child);
  urls.bare = `http://127.0.0.1:${bare.port}${path}`;
  pids.bare = bare.child.pid;
  const bBody = await (await fetch(urls.B)).text();
  if (bBody !== body) console.log(`note: B's page differs from A's (${bBody.length} against ${body.length} chars)`);
  for (const k of ['A', 'B']) await load(urls[k], pids[k], 5); // warm-up
  const r = { A: [], B: [], bare: [] };
  for (let i = 0; i < rounds; i++)
    for (const k of i % 2 ? ['B', 'bare', 'A'] : ['A', 'bare', 'B']) r[k].push(await load(urls[k], pids[k], seconds));
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const rps = (k) => med(r[k].map((x) => x.rps));
  const cpu = (k) => med(r[k].map((x) => x.cpu));
  for (const k of ['A', 'B', 'bare'])
    console.log(
      k,
      'req/s',
      r[k].map((x) => x.rps.toFixed(0)).join(' '),
      'median',
      rps(k).toFixed(0),
      k === 'bare' ? '' : `ratio ${((100 * rps(k)) / rps('bare')).toFixed(2)}%`,
      '| CPU ms/answer',
      r[k].map((x) => x.cpu.toFixed(3)).join(' '),
      'median',
      cpu(k).toFixed(3),
      k === 'bare' ? '' : `CPU ratio ${((100 * cpu('bare')) / cpu(k)).toFixed(2)}%`,
    );
  const perRound = r.A.map((a, i) => a.cpu / r.B[i].cpu);
  // The adapter's floor in each build (an endpoint answering `ok`: no page, no platform call).
  for (const k of ['A', 'B']) {
    const f = await load(urls[k].replace(path, '/_podium/health'), pids[k], seconds);
    console.log(k, 'floor /_podium/health: CPU ms/answer', f.cpu.toFixed(3));
  }
  console.log(
    'A/B CPU per answer, each round',
    perRound.map((x) => x.toFixed(3)).join(' '),
    'median',
    med(perRound).toFixed(3),
  );
} finally {
  for (const c of procs) c.kill();
}
