// bench/reports.mjs — an asynchronous spreadsheet report of a long list (issue 17; docs/api/reports.md):
// an event of N attendees (default 100,000) seeded straight in the store, an API process that only adds
// jobs (JOBS_WORK=0) and one `podium worker` that builds the report. The report is asked for with
// event.person.find&format=excel-daemon and download.find is polled until it is ready.
// Prints rows/s (from the answer to ready) and the worker's peak RSS (the kernel's VmHWM: its highest
// resident set over its whole life, start-up included) against the goals (≥ 20,000 rows/s, ≤ 150 MB).
// Also the worker's CPU seconds (rows per CPU second: what a loaded machine changes least).
// Usage: npm run bench:reports [-- --rows 100000 --store sqlite|postgres --page REPORT_PAGE_ROWS --port 0
//   --worker-flags=--trace-gc --worker-log=gc.log]
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { URLSearchParams } from 'node:url';
import { benchEnv, pgSchema, startPinned } from './lib.mjs';
import { openStore } from '../src/platform/db/connect.ts';
import { createPerson } from '../src/platform/resources/person/repository.ts';
import { seedAttendees } from '../src/platform/seed/attendees.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    store: { type: 'string', default: 'sqlite' },
    page: { type: 'string', default: '' },
    // The API's port (0: any free one); on a shared machine, one of the ports you were given.
    port: { type: 'string', default: '0' },
    // Node/V8 flags of the worker, e.g. "--trace-gc"; one bounding the young generation replaces the
    // worker's own (bin/podium.js, docs/api/reports.md: memory).
    'worker-flags': { type: 'string', default: '' },
    // Where the worker's output goes as well (e.g. with --worker-flags=--trace-gc).
    'worker-log': { type: 'string', default: '' },
  },
});
const ROWS = Number(values.rows);
const GOAL_ROWS_PER_S = 20_000;
const GOAL_RSS_MB = 150;
const PASSWORD = 'bench password 1';

const pg = values.store === 'postgres' ? await pgSchema() : undefined;
const url = pg?.url ?? `file:${join(mkdtempSync(join(tmpdir(), 'podium-bench-reports-')), 'podium.db')}`;
const env = {
  ...benchEnv('unused'),
  DATABASE_URL: url,
  API_PORT: values.port,
  JOBS_WORK: '0',
  JOBS_POLL_MS: '100',
  ...(values.page ? { REPORT_PAGE_ROWS: values.page } : {}),
};

const api = await startPinned(0, ['bin/podium.js', 'start'], env);
const base = `http://127.0.0.1:${api.port}`;
const children = [api.child];
try {
  const call = async (name, query = {}, body) => {
    const res = await fetch(`${base}/?${new URLSearchParams({ action: name, ...query })}`, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      body: body ? new URLSearchParams(body) : undefined,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${name}: ${text}`);
    return JSON.parse(text).data;
  };
  const { db } = openStore(url);
  await createPerson(db, { username: 'op@bench.test', password: PASSWORD, operator: true }, 0);
  const [{ tokenID }] = await call('person.signIn', { username: 'op@bench.test' }, { password: PASSWORD });
  const [{ companyID }] = await call('company.create', { tokenID }, { shortName: 'Reports bench' });
  const [{ eventID }] = await call('company.event.bind', { tokenID, companyID }, { name: 'Big', nickname: 'big' });
  let t = performance.now();
  await seedAttendees(db, Number(eventID), ROWS, 'bench');
  await db.destroy();
  console.log(`seeded ${ROWS.toLocaleString('en')} attendees in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const flags = values['worker-flags'].split(' ').filter(Boolean);
  const worker = spawn(process.execPath, [...flags, 'bin/podium.js', 'worker'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(worker);
  if (values['worker-log']) worker.stdout.pipe(createWriteStream(values['worker-log']));
  await new Promise((resolve) => {
    let out = '';
    worker.stdout.on('data', (d) => {
      out += d;
      if (/Podium worker running jobs/.test(out)) resolve();
    });
  });
  const status = () => readFileSync(`/proc/${worker.pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())[1]);
  const idleRss = kb('VmRSS');
  // The worker's CPU (user + system, all its threads: zlib's too), in seconds: on a loaded machine the
  // wall-clock rate says more about the neighbours than about the report.
  const cpu = () => {
    const f = readFileSync(`/proc/${worker.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  const idleCpu = cpu();

  t = performance.now();
  const [queued] = await call('event.person.find', { tokenID, eventID, selection: 'all', format: 'excel-daemon' });
  let row;
  for (;;) {
    [row] = (await call('download.find', { tokenID, companyID })).filter((d) => d.downloadID === queued.downloadID);
    if (row.state === 'ready' || row.state === 'failed') break;
    await sleep(50);
  }
  const seconds = (performance.now() - t) / 1000;
  if (row.state !== 'ready') throw new Error(`report failed: ${row.error}`);
  const peak = kb('VmHWM');
  const cpuSeconds = cpu() - idleCpu;
  const rate = Number(row.progress) / seconds;
  const mb = (k) => (k / 1024).toFixed(1);
  console.log(
    `store ${values.store}, ${Number(row.progress).toLocaleString('en')} rows, ${(Number(row.size) / 1e6).toFixed(1)} MB file`,
  );
  console.log(
    `report: ${seconds.toFixed(2)} s, ${Math.round(rate).toLocaleString('en')} rows/s (goal ≥ ${GOAL_ROWS_PER_S.toLocaleString('en')}: ${rate >= GOAL_ROWS_PER_S ? 'met' : 'MISSED'})`,
  );
  console.log(
    `worker CPU: ${cpuSeconds.toFixed(2)} s, ${Math.round(Number(row.progress) / cpuSeconds).toLocaleString('en')} rows per CPU second; load average ${loadavg()[0].toFixed(1)}`,
  );
  console.log(
    `worker RSS: ${mb(idleRss)} MB idle, peak ${mb(peak)} MB (goal ≤ ${GOAL_RSS_MB} MB: ${peak / 1024 <= GOAL_RSS_MB ? 'met' : 'MISSED'})`,
  );
} finally {
  for (const c of children) c.kill('SIGKILL');
  await pg?.drop();
}
