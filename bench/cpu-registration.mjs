// bench/cpu-registration.mjs — the platform's CPU time per public registration (form.respondRegistration
// of a new person on an open event of bench/seed-bench.mjs, SQLite): after a warm-up at 200/s, 3 rounds
// of 2,000 registrations paced at 400/s, each printing the platform process's user+system CPU (from
// /proc) divided by the registrations answered 2xx. The platform runs on core 0, the load on core 1.
// The HTTP floor for comparison: a POST api.ping costs 0.27–0.31 ms on the reference machine.
// Usage: npm run bench:registration
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEnv, paced, pinSelf, registrations, startPinned } from './lib.mjs';

pinSelf(1);
const dbFile = join(mkdtempSync(join(tmpdir(), 'podium-cpu-')), 'b.db');
const env = { ...process.env, DATABASE_URL: `file:${dbFile}`, PROGRAMS: '1' };
execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], { env, stdio: 'ignore' });
const events = JSON.parse(execFileSync(process.execPath, ['bench/seed-bench.mjs'], { env, encoding: 'utf8' }));
const platform = await startPinned(0, ['bin/podium.js', 'start'], benchEnv(dbFile));
const api = `http://127.0.0.1:${platform.port}`;

/** Seconds of CPU (user + system) the process has used: fields 14 and 15 of /proc/<pid>/stat, in ticks. */
const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

await paced(api, { rate: 200, duration: 3, next: registrations(events.signup, 'warm') });
for (let i = 0; i < 3; i++) {
  const c = cpuOf(platform.child.pid);
  const r = await paced(api, { rate: 400, duration: 5, next: registrations(events.signup, `r${i}`) });
  const ms = ((cpuOf(platform.child.pid) - c) / r.ok) * 1000;
  console.log(`${ms.toFixed(3)} ms CPU per registration (${r.ok} ok, ${r.failed} failed)`);
}
platform.child.kill();
