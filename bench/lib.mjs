// Shared by the benchmarks: start a process pinned to a core, wait for its port, load it with autocannon.
import { spawn, execFileSync } from 'node:child_process';
import { URLSearchParams } from 'node:url';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { Pool } from 'undici';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Keeps the load generator off the server's core, where the machine has two. */
export function pinSelf(core) {
  if (hasTaskset) execFileSync('taskset', ['-cp', String(core), String(process.pid)], { stdio: 'ignore' });
}

/**
 * Starts `node args…` on `core`; resolves with its port once it prints `listening … <port>`. With `ipc`,
 * the child has an IPC channel (taskset execs node, which inherits it): bench/memory-probe.mjs answers on it.
 */
export function startPinned(core, args, env, { ipc = false } = {}) {
  const cmd = hasTaskset ? 'taskset' : process.execPath;
  const argv = hasTaskset ? ['-c', String(core), process.execPath, ...args] : args;
  const stdio = ['ignore', 'pipe', 'inherit', ...(ipc ? ['ipc'] : [])];
  const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening\D*?(?:127\.0\.0\.1:)?(\d{2,5})\b/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), output: () => out });
    });
  });
}

export async function load(url, { duration = 5, connections = 32 } = {}) {
  const r = await autocannon({ url, duration, connections, pipelining: 1 });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`${url}: ${bad} failed requests of ${r.requests.total}`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

/** Prints one line per row; a row with `base` (the limit's req/s) shows its ratio and its goal. */
export function report(rows) {
  const lines = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'ratio to bare', 'goal', 'CPU ms/answer', 'CPU ratio']];
  for (const r of rows) {
    const ratio = r.base === undefined ? undefined : r.rps / r.base;
    const mark = r.goal === undefined ? '' : `${ratio >= r.goal ? 'met' : 'MISSED'} ≥ ${(r.goal * 100).toFixed(0)}%`;
    const shown = ratio === undefined ? '' : `${(ratio * 100).toFixed(1)}%`;
    // The bare server's CPU per answer over this one's: what the throughput ratio is on a quiet machine.
    const cpu = r.cpu === undefined ? '' : r.cpu.toFixed(3);
    const cpuRatio = r.cpuBase === undefined || !r.cpu ? '' : `${((100 * r.cpuBase) / r.cpu).toFixed(1)}%`;
    lines.push([r.name, r.rps.toFixed(0), String(r.p50), String(r.p99), shown, mark, cpu, cpuRatio]);
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const l of lines) console.log(l.map((c, i) => c.padEnd(widths[i])).join('  '));
  return rows.every((r) => r.goal === undefined || r.rps / r.base >= r.goal);
}

/** The environment of a platform under load: its own store, API only, no rate limits in the way. */
export const benchEnv = (dbFile) => ({
  DATABASE_URL: `file:${dbFile}`,
  API_PORT: '0',
  LOG_LEVEL: 'warn',
  SEED_DEMO: '0',
  SITE: '0',
  RATE_LIMIT_CLIENT: '100000000',
  RATE_LIMIT_TOKEN: '100000000',
});

/**
 * An autocannon request for form.respondRegistration with a new e-mail each time (`tag` names the
 * people, so two benchmarks' registrations never collide).
 */
export function registrationRequest(tag) {
  let n = 0;
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (req) => {
      n++;
      const body = new URLSearchParams({
        firstName: 'Bench',
        lastName: `Person ${n}`,
        email: `${tag}${n}@bench.podium.test`,
        feedbackContent: '[]',
      });
      return { ...req, body: body.toString() };
    },
  };
}

/** The PostgreSQL server of the benchmarks that need one. */
export const BENCH_PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function pgOnce(text) {
  const c = new pg.Client({ connectionString: BENCH_PG_URL });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** A fresh schema of BENCH_PG_URL: the DATABASE_URL of a store in it, and its drop (with its job queue's schema). */
export async function pgSchema() {
  const schema = `bench_${randomUUID().replaceAll('-', '')}`;
  await pgOnce(`create schema ${schema}`);
  return {
    url: `${BENCH_PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => pgOnce(`drop schema if exists ${schema} cascade; drop schema if exists ${schema}_jobs cascade`),
  };
}

/**
 * A light, open-loop load: one request every 1000/rate ms for `duration` seconds, whatever the answers
 * take (a rush arrives at its own pace). Unlike autocannon's overallRate, it costs the load generator's
 * core almost nothing, so it does not slow a second load measured on the same core. `next()` makes each
 * request ({ path, method, headers, body }). Answers { ok, failed, perSecond, p99 } (ms).
 */
export async function paced(origin, { rate, duration, next }) {
  const pool = new Pool(origin, { connections: 16 });
  const latencies = [];
  let ok = 0;
  let failed = 0;
  const inFlight = new Set();
  const started = performance.now();
  for (let i = 0; performance.now() - started < duration * 1000; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    const p = pool
      .request(next())
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        else failed++;
        latencies.push(performance.now() - sent);
      })
      .catch(() => failed++)
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    ok,
    failed,
    perSecond: ok / duration,
    p99: latencies.length ? latencies[Math.floor(latencies.length * 0.99)] : 0,
  };
}

/** form.respondRegistration requests for paced(): a new e-mail each (`tag` keeps two runs' people apart). */
export function registrations(eventID, tag) {
  let n = 0;
  return () => {
    n++;
    return {
      path: `/form/respondRegistration?eventID=${eventID}`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        firstName: 'Bench',
        lastName: `Person ${n}`,
        email: `${tag}${n}@bench.podium.test`,
        feedbackContent: '[]',
      }).toString(),
    };
  };
}

/** Seeds the demo with `podium seed demo` under env; its summit's eventID and the organizer's sign-in. */
export function seedDemo(env) {
  const seeded = execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const eventID = /event (\d+) \(summit\)/.exec(seeded)[1];
  const [, username, password] = /username (\S+)\s+password (\S+)/.exec(seeded);
  return { eventID, username, password };
}

/**
 * The site benchmarks' store (bench:site, bench/site-ab.mjs) in the SQLite file `dbFile`: the demo, the
 * bench events (bench/seed-bench.mjs), and the 300-activity event given the demo's hotsite sections and
 * venue, so its hotsite is a full page. Answers the bench events' ids.
 */
export function seedSiteBench(dbFile) {
  const env = { ...process.env, DATABASE_URL: `file:${dbFile}` };
  execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], { env, stdio: 'ignore' });
  const events = JSON.parse(execFileSync(process.execPath, ['bench/seed-bench.mjs'], { env, encoding: 'utf8' }));
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { openStore } from './src/platform/db/connect.ts';
       import { seedSections } from './src/platform/seed/program.ts';
       const { db } = openStore(process.env.DATABASE_URL);
       await seedSections(db, ${events.program});
       await db.updateTable('event').set({
         description: '<p>Three days, six rooms, three hundred sessions.</p>',
         placeName: 'Podium Hall', address: 'Rua da Prata 80', city: 'Lisboa', latitude: 38.7101, longitude: -9.1366,
       }).where('eventID', '=', ${events.program}).execute();
       await db.destroy();`,
    ],
    { env, stdio: 'inherit' },
  );
  return events;
}

/**
 * The node flags of a server whose memory a benchmark measures: bench/memory-probe.mjs answers
 * memoryOf() after collecting all the garbage it can (the probe's header says how).
 */
export const PROBE_ARGS = ['--expose-gc', '--import', './bench/memory-probe.mjs'];

/** A server's memory (started with PROBE_ARGS and { ipc: true }) after a full GC: { rss, heapUsed, external } in bytes. */
export function memoryOf(child) {
  return new Promise((resolve) => {
    const answer = (m) => {
      if (m?.probe !== 'memory') return;
      child.off('message', answer);
      resolve(m);
    };
    child.on('message', answer);
    child.send({ probe: 'memory' });
  });
}

/**
 * Opens `n` Server-Sent Events streams on `url`, 100 at a time, each on its own HTTP/1.1 connection;
 * `reader()` makes each stream's handler of its text. Answers the requests (destroy() closes one).
 */
export async function openStreams(url, n, reader = () => () => {}) {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const open = [];
  const one = () =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`a stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', reader());
        open.push(req);
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
  for (let i = 0; i < n; i += 100) await Promise.all(Array.from({ length: Math.min(100, n - i) }, one));
  return open;
}

/**
 * What `n` idle streams on `url` cost the server `child` (started with PROBE_ARGS, { ipc: true }), in KB
 * per stream, measured the same way for any server: first 200 streams are opened and closed (the stream
 * path's code is compiled and its first-use memory taken), then memoryOf() before, with half the streams
 * open, and with all `n`. `rss`: resident set after a full GC; `heap`: V8 heap used plus external memory
 * after it; both over all `n` (`all`) and over the second half alone (`marginal`: what one more stream
 * costs, without what the first ones took once — malloc arenas and V8 pages growing, freed memory of
 * earlier work reused). Without the GC the figures would count the garbage of opening the streams and
 * the young generation their burst grew. Answers the figures, the memory before and with all open, the
 * streams (left open) and how long opening them took (ms).
 */
export async function streamMemory(child, url, n, reader) {
  for (const s of await openStreams(url, 200)) s.destroy();
  const settle = () => new Promise((r) => setTimeout(r, 1000));
  await settle();
  const before = await memoryOf(child);
  const started = performance.now();
  const half = Math.floor(n / 2);
  const streams = await openStreams(url, half, reader);
  let openedMs = performance.now() - started;
  await settle();
  const middle = await memoryOf(child);
  const again = performance.now();
  streams.push(...(await openStreams(url, n - half, reader)));
  openedMs += performance.now() - again;
  await settle();
  const after = await memoryOf(child);
  const per = (from, to, count) => ({
    rss: (to.rss - from.rss) / count / 1024,
    heap: (to.heapUsed + to.external - from.heapUsed - from.external) / count / 1024,
  });
  return { all: per(before, after, n), marginal: per(middle, after, n - half), before, after, streams, openedMs };
}
