// bench/webhooks.mjs — webhook deliveries at scale (issue 14; docs/webhooks.md): C changes (default
// 10,000) of one company's event, heard by 3 webhooks, delivered by W `podium worker` processes (default
// 2) on a PostgreSQL store to a receiver in this process that verifies every signature with
// standardwebhooks. The changes are logged at a steady rate (--rate changes/s, default 400, so 1,200
// deliveries/s) straight into the change log, as a write's transaction logs them (the API's own cost is
// not what is measured here), each naming a real session that the payload reads.
// Prints deliveries/s over the run and commit-to-delivery latency (the change's `at` to its arrival at
// the receiver) p50/p99, against the goals (≥ 1,000/s, p99 ≤ 2 s), and the same POSTs sent by a bare
// undici loop (no store, no queue, no signing) in the same run: the ratio is the platform's share of it.
// --objects N spreads the changes over N sessions (round robin): a batch of deliveries then reads as many
// objects as it has changes, not one (the default, 1, is every change of one session, as before).
// BENCH_API_PORT and BENCH_RECEIVER_PORT fix the ports (default: any free one).
// Usage: npm run bench:webhooks [-- --changes 10000 --rate 400 --workers 2 --objects 1]
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Pool } from 'undici';
import { Webhook } from 'standardwebhooks';
import { URLSearchParams } from 'node:url';
import { benchEnv, pgSchema, pinSelf, startPinned } from './lib.mjs';

const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '400' },
    workers: { type: 'string', default: '2' },
    objects: { type: 'string', default: '1' },
  },
});
const CHANGES = Number(values.changes);
const RATE = Number(values.rate);
const WORKERS = Number(values.workers);
const OBJECTS = Math.max(1, Number(values.objects));
const HOOKS = 3;
const GOAL_PER_S = 1000;
const GOAL_P99_MS = 2000;
const PASSWORD = 'bench password 1';
/** CPU ms (user + system) a child has used so far, from /proc (clock ticks of 10 ms). */
const cpuMsOf = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command name: state is field 3, utime and stime are fields 14 and 15.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
/** CPU ms of each PostgreSQL backend serving the platform's store (by application_name), by pid. */
async function backendsCpu(db) {
  const { rows } = await db.query('select pid from pg_stat_activity where application_name = $1', [APP]);
  return new Map(rows.map((r) => [r.pid, cpuMsOf(r.pid)]));
}
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

pinSelf(1);
const store = await pgSchema();
// The platform's connections carry a name of their own (the store's and pg-boss's: the address's
// application_name wins over pg-boss's), so the PostgreSQL backends serving the platform can be told
// from any other work on the machine.
const APP = `podium-bench-${process.pid}`;
const env = {
  ...benchEnv('unused'),
  DATABASE_URL: `${store.url}&application_name=${APP}`,
  API_PORT: process.env.BENCH_API_PORT ?? '0',
  JOBS_WORK: '0',
  JOBS_CONCURRENCY: process.env.BENCH_CONCURRENCY ?? '32',
  WEBHOOK_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_ALLOW_HTTP: '1',
  WEBHOOK_FEED_MS: '50',
};

/** The receiver: verifies, records each webhook-id's first arrival. */
const arrived = new Map();
let bad = 0;
let verifiers = [];
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const id = req.headers['webhook-id'];
    if (verifiers.length) {
      const hook = verifiers[Number(/^msg_(\d+)_/.exec(id)?.[1])];
      try {
        hook.verify(raw, req.headers);
      } catch {
        bad++;
      }
    }
    if (!arrived.has(id)) arrived.set(id, Date.now());
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(Number(process.env.BENCH_RECEIVER_PORT ?? 0), '127.0.0.1', r));
const target = `http://127.0.0.1:${receiver.address().port}/hook`;

const children = [];
const db = new pg.Client({ connectionString: store.url });
try {
  // The bare floor: the same number of POSTs of a ~1 KB body, 64 at a time, from one loop.
  const body = JSON.stringify({ type: 'activity.edit', pad: 'x'.repeat(900) });
  const pool = new Pool(`http://127.0.0.1:${receiver.address().port}`, { connections: 64 });
  const total = CHANGES * HOOKS;
  let sent = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (sent < total) {
        const n = sent++;
        const r = await pool.request({ path: '/hook', method: 'POST', body, headers: { 'webhook-id': `bare_${n}` } });
        await r.body.dump();
      }
    }),
  );
  const barePerS = total / ((performance.now() - t0) / 1000);
  const bareCpu = process.cpuUsage(cpu0);
  // The client's and the receiver's CPU per POST (both in this process): the floor of a delivery.
  const bareCpuMs = (bareCpu.user + bareCpu.system) / 1000 / total;
  await pool.close();
  arrived.clear();

  // The store, a company admin, an event with a session, 3 webhooks (through the API, which migrates).
  const api = await startPinned(0, ['bin/podium.js', 'start'], env);
  children.push(api.child);
  const base = `http://127.0.0.1:${api.port}`;
  execFileSync(
    process.execPath,
    ['bin/podium.js', 'admin', 'create', '--username', 'op@bench.test', '--password', PASSWORD],
    {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    },
  );
  const call = async (name, query, body, token) => {
    const q = new URLSearchParams({ ...query, ...(token ? { tokenID: token } : {}) });
    const res = await fetch(`${base}/${name.replaceAll('.', '/')}?${q}`, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      body: body ? new URLSearchParams(body) : undefined,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${name}: ${text}`);
    return JSON.parse(text).data;
  };
  const [{ tokenID: op }] = await call('person.signIn', { username: 'op@bench.test' }, { password: PASSWORD });
  const [company] = await call('company.create', {}, { shortName: 'Bench Hooks' }, op);
  await call(
    'company.person.bind',
    { companyID: company.companyID },
    { name: 'A', email: 'a@bench.test', password: PASSWORD, level: '1' },
    op,
  );
  const [{ tokenID: admin }] = await call('person.signIn', { username: 'a@bench.test' }, { password: PASSWORD });
  const [{ eventID }] = await call(
    'company.event.bind',
    { companyID: company.companyID },
    { name: 'Bench', nickname: 'bench' },
    admin,
  );
  const activityIDs = [];
  for (let i = 0; i < OBJECTS; i++) {
    const [{ activityID }] = await call(
      'activity.create',
      { eventID },
      { name: `Talk ${i}`, dateBegin: '1700000000', dateEnd: '1700003600' },
      admin,
    );
    activityIDs.push(activityID);
  }
  verifiers = [];
  for (let i = 0; i < HOOKS; i++) {
    const [h] = await call(
      'webhook.create',
      { companyID: company.companyID },
      { url: target, types: 'activity.edit' },
      admin,
    );
    verifiers[Number(h.webhookID)] = new Webhook(h.secret);
  }
  for (let i = 0; i < WORKERS; i++) {
    // Not pinned: the workers and PostgreSQL share both cores (the receiver is cheap).
    const child = spawn(process.execPath, ['bin/podium.js', 'worker'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await new Promise((resolve) => child.stdout.on('data', (d) => String(d).includes('running jobs') && resolve()));
  }

  // The changes, at RATE per second in batches of 20, each committed on its own like a write.
  await db.connect();
  const workers = children.slice(1);
  const workerCpu0 = workers.reduce((s, c) => s + cpuMsOf(c.pid), 0);
  const pgCpu0 = await backendsCpu(db);
  const at = new Map();
  const started = Date.now();
  const idsOf = activityIDs.map((a) => JSON.stringify({ activityID: Number(a), eventID: Number(eventID) }));
  for (let i = 0; i < CHANGES; i += 20) {
    const due = started + (i / RATE) * 1000;
    if (due > Date.now()) await sleep(due - Date.now());
    for (let j = i; j < Math.min(CHANGES, i + 20); j++) {
      const now = Date.now();
      const { rows } = await db.query(
        `insert into change (at, operation, kind, "companyID", "eventID", "objectID", ids) values ($1, 'activity.edit', 'activity', $2, $3, $4, $5) returning "changeID"`,
        [now, company.companyID, eventID, activityIDs[j % OBJECTS], idsOf[j % OBJECTS]],
      );
      at.set(Number(rows[0].changeID), now);
    }
  }
  const expected = CHANGES * HOOKS;
  const deadline = Date.now() + 300_000;
  while (arrived.size < expected && Date.now() < deadline) await sleep(100);
  // Where the time went: change → delivery row (the feeder), delivery row → first attempt (the queue).
  const { rows: lag } = await db.query(`select
      percentile_cont(0.99) within group (order by d."createdAt" - c.at) as feed,
      percentile_cont(0.99) within group (order by a.at - d."createdAt") as queue
    from "webhookDelivery" d join change c on c."changeID" = d."changeID"
    join "webhookAttempt" a on a."deliveryID" = d."deliveryID"`);
  const workerCpuMs = (workers.reduce((s, c) => s + cpuMsOf(c.pid), 0) - workerCpu0) / arrived.size;
  // Backends that closed meanwhile are not counted (the pools keep theirs open under load).
  let pgCpu = 0;
  for (const [pid, ms] of await backendsCpu(db)) pgCpu += ms - (pgCpu0.get(pid) ?? 0);
  const pgCpuMs = pgCpu / arrived.size;
  const last = Math.max(...arrived.values());
  const latencies = [...arrived.entries()].map(([id, t]) => t - at.get(Number(id.split('_')[2]))).sort((a, b) => a - b);
  const perS = arrived.size / ((last - started) / 1000);
  console.log(
    `${CHANGES} changes of ${OBJECTS} session(s) × ${HOOKS} webhooks at ${RATE} changes/s, ${WORKERS} workers (PostgreSQL)`,
  );
  console.log(`delivered ${arrived.size}/${expected}, bad signatures ${bad}`);
  console.log(
    `p99 change → delivery row ${Math.round(lag[0].feed)} ms, delivery row → attempt ${Math.round(lag[0].queue)} ms`,
  );
  console.log(
    `deliveries/s ${perS.toFixed(0)} (goal ≥ ${GOAL_PER_S}: ${perS >= GOAL_PER_S ? 'met' : 'MISSED'}); bare POST loop ${barePerS.toFixed(0)}/s, ratio ${(perS / barePerS).toFixed(3)}`,
  );
  console.log(
    `CPU per delivery: workers ${workerCpuMs.toFixed(2)} ms, PostgreSQL ${pgCpuMs.toFixed(2)} ms (the platform's backends, pg-boss's included); a bare POST ${bareCpuMs.toFixed(3)} ms (client and receiver together)`,
  );
  console.log(
    `commit → delivery ms: p50 ${pct(latencies, 50)}, p99 ${pct(latencies, 99)}, max ${latencies.at(-1)} (goal p99 ≤ ${GOAL_P99_MS}: ${pct(latencies, 99) <= GOAL_P99_MS ? 'met' : 'MISSED'})`,
  );
} finally {
  for (const c of children) c.kill('SIGKILL');
  await db.end().catch(() => {});
  receiver.close();
  await sleep(200);
  await store.drop();
}
