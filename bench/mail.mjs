// bench/mail.mjs — e-mail through the durable queue (issue 15): one platform process (API and its job
// worker, SQLite, core 0) sends registration confirmations by SMTP to a sink on loopback (smtp-server,
// in this process, core 1). Two figures in one run:
//   1. registrations/s with confirmations on, against the same platform with the company's
//      confirmationEmail tool off (the baseline): what confirmations cost the registrations (goal:
//      still ≥ 1,000 registrations/s), and the platform's CPU per registration either way (the
//      steadier figure on a shared machine). Both paths are warm first: the first confirmations of a
//      process load and compile the mail code (nodemailer, the QR and calendar code), which cost the
//      first measured second a fifth of its registrations when it fell in the `on` run;
//   2. messages/s the worker sends while registrations keep coming, and after (goal ≥ 200/s): every
//      confirmation composed (HTML, text, QR image, .ics) and sent over SMTP.
// Usage: npm run bench:mail (CPU_PROF=<dir>: the platform writes a V8 CPU profile there, --cpu-prof)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { SMTPServer } from 'smtp-server';
import autocannon from 'autocannon';
import { benchEnv, pinSelf, registrationRequest, startPinned } from './lib.mjs';
import { dnsServer } from '../tests/helpers/dns.ts';

/** Registrations as fast as 16 connections go for `duration` s: req/s of 2xx, p99 ms. */
async function load(url, duration, tag) {
  const r = await autocannon({ url, duration, connections: 16, requests: [registrationRequest(tag)] });
  if (r.non2xx > 0) console.error('status codes', JSON.stringify(r.statusCodeStats));
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`${bad} failed registrations of ${r.requests.total}`);
  return { rps: r.requests.total / duration, p99: r.latency.p99 };
}

pinSelf(1);
const arrived = [];
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      arrived.push(performance.now());
      callback();
    });
  },
});
await new Promise((r) => sink.listen(0, '127.0.0.1', r));
const smtpPort = sink.server.address().port;

// A DNS server on loopback (core 1 too; the tests' own) that gives the registrations' domain an MX
// record: each new attendee's address is checked (event.sanity, a job per batch), and without it those
// questions went to the system's resolver, which this machine cannot reach, and the jobs failed and
// were retried.
const dns = await dnsServer();
dns.mx.set('bench.podium.test', ['mx.podium.test']);

const dbFile = join(mkdtempSync(join(tmpdir(), 'podium-mail-')), 'b.db');
const env = { ...process.env, DATABASE_URL: `file:${dbFile}`, PROGRAMS: '1' };
execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], { env, stdio: 'ignore' });
const events = JSON.parse(execFileSync(process.execPath, ['bench/seed-bench.mjs'], { env, encoding: 'utf8' }));
const profile = process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
const platform = await startPinned(0, [...profile, 'bin/podium.js', 'start'], {
  ...benchEnv(dbFile),
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  SMTP_MAX_CONNECTIONS: '8',
  JOBS_POLL_MS: '50',
  DNS_SERVERS: dns.server,
});
const url = `http://127.0.0.1:${platform.port}/form/respondRegistration?eventID=${events.signup}`;
const db = new DatabaseSync(dbFile, { timeout: 10_000 });
process.on('exit', () => platform.child.kill());
const tool = (on) => db.prepare('update "companyTool" set "confirmationEmail" = ?').run(on);
// Every confirmation of the run goes out: the demo's 10,000 e-mails ran out on a fast machine (2,000
// registrations/s) and the rest were skipped unsent, which cost the worker less than sending them.
db.prepare("update billing set amount = 1000000000 where product = 'email'").run();

/**
 * CPU seconds the platform process used so far (user + system, /proc): on a machine shared with other
 * work, CPU per message is the figure that does not depend on how much of the core the process got.
 */
function cpuSeconds() {
  try {
    // taskset execs node: the child's pid is the platform's.
    const f = readFileSync(`/proc/${platform.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

const duration = Number(process.env.SECONDS ?? 5);
/** Registrations for `seconds`, with the platform's CPU ms per registration. */
async function measured(seconds, tag) {
  const cpu = cpuSeconds();
  const r = await load(url, seconds, tag);
  return { ...r, cpu: (1000 * (cpuSeconds() - cpu)) / (r.rps * seconds) };
}
// Warm-up, confirmations on, until their mails are out (the queue empty).
tool(1);
await load(url, 2, 'warm');
for (const end = performance.now() + 60_000; performance.now() < end;) {
  if (db.prepare('select count(*) as n from job').get().n === 0) break;
  await new Promise((r) => setTimeout(r, 200));
}
tool(0);
const off = await measured(duration, 'off');
tool(1);
const before = arrived.length;
const started = performance.now();
const on = await measured(duration, 'on');
const expected = Math.round(on.rps * duration);
const sentDuring = arrived.length - before;
// Every confirmation of the run, then the rate: messages over the time from the first to the last.
const cpuAtLoadEnd = cpuSeconds();
const arrivedAtLoadEnd = arrived.length;
const deadline = performance.now() + 120_000;
while (arrived.length - before < expected * 0.98 && performance.now() < deadline)
  await new Promise((r) => setTimeout(r, 100));
const mine = arrived.slice(before);
const perSecond = (mine.length - 1) / ((mine.at(-1) - mine[0]) / 1000);
const drained = (mine.at(-1) - started) / 1000;
// After the load the platform only works the queue: its CPU over the messages of that stretch.
const cpuPerMessage = (1000 * (cpuSeconds() - cpuAtLoadEnd)) / Math.max(1, arrived.length - arrivedAtLoadEnd);

// How much of its core the platform used: what is missing from 100 % it spent waiting (for the disk,
// say) with requests in hand, since 16 connections always keep some waiting.
const busy = (r) => `${((r.rps * r.cpu) / 10).toFixed(0)} % of its core`;
console.log(
  `registrations/s, confirmations off (baseline): ${off.rps.toFixed(0)} (p99 ${off.p99} ms, CPU ${off.cpu.toFixed(2)} ms each, ${busy(off)})`,
);
console.log(
  `registrations/s, confirmations on:             ${on.rps.toFixed(0)} (p99 ${on.p99} ms, CPU ${on.cpu.toFixed(2)} ms each, ${busy(on)}), ` +
    `ratio ${(on.rps / off.rps).toFixed(2)} — goal ≥ 1,000/s ${on.rps >= 1000 ? 'met' : 'MISSED'}`,
);
console.log(
  `messages/s by one worker: ${perSecond.toFixed(0)} (${mine.length} of about ${expected} confirmations, ` +
    `${sentDuring} during the load, all by ${drained.toFixed(1)} s) — goal ≥ 200/s ${perSecond >= 200 ? 'met' : 'MISSED'}`,
);
console.log(
  `worker CPU per message after the load: ${cpuPerMessage.toFixed(2)} ms (${arrived.length - arrivedAtLoadEnd} messages; ` +
    `1000 / that = ${(1000 / cpuPerMessage).toFixed(0)} messages/s on a core of its own)`,
);
platform.child.kill();
await new Promise((r) => platform.child.once('exit', r));
db.close();
sink.close();
await dns.close();
