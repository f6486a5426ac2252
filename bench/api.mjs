// bench/api.mjs — the platform API against a bare node:http server, in one run (issue "Platform core").
// Server processes run on core 0, the load generator on core 1. Prints req/s, p50/p99 and the ratio
// of each scenario to the bare server answering the same bytes from memory.
// Usage: npm run bench:api [-- --duration 5]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { load, pinSelf, report, startPinned } from './lib.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' } } });
const duration = Number(values.duration);
pinSelf(1);

const dir = mkdtempSync(join(tmpdir(), 'podium-bench-'));
const platform = await startPinned(0, ['bin/podium.js', 'start'], {
  DATABASE_URL: `file:${join(dir, 'bench.db')}`,
  API_PORT: '0',
  LOG_LEVEL: 'warn',
  SEED_DEMO: '1',
  RATE_LIMIT_CLIENT: '100000000',
  RATE_LIMIT_TOKEN: '100000000',
});
const api = `http://127.0.0.1:${platform.port}`;
const eventID = /event (\d+) \(summit\)/.exec(platform.output())[1];

const scenarios = [
  { name: 'dispatcher (api.ping, no store)', path: '/api/ping', goal: 0.75 },
  { name: 'event.get public (SQLite)', path: `/event/get?eventID=${eventID}`, goal: 0.6 },
  { name: 'company.get public (SQLite)', path: '/company/get?namespace=demo', goal: 0.6 },
];
// The bare server answers each path with the very bytes the platform answers.
const bodies = {};
for (const s of scenarios) bodies[s.path] = await (await fetch(api + s.path)).text();
const bare = await startPinned(0, ['bench/bare-server.mjs'], { BODIES: JSON.stringify(bodies) });

try {
  await load(`http://127.0.0.1:${bare.port}/api/ping`, { duration: 1 }); // warm-up
  for (const s of scenarios) await load(api + s.path, { duration: 1 });
  // The limit is measured before and after the scenarios and the better run kept, so a noisy moment
  // cannot flatter the ratios.
  const bareUrl = `http://127.0.0.1:${bare.port}${scenarios[1].path}`;
  const before = await load(bareUrl, { duration });
  const rows = [];
  for (const s of scenarios) rows.push({ ...s, ...(await load(api + s.path, { duration })) });
  const after = await load(bareUrl, { duration });
  const baseline = { name: 'bare node:http (limit)', ...(before.rps >= after.rps ? before : after) };
  const met = report([baseline, ...rows], baseline);
  process.exitCode = met ? 0 : 1;
} finally {
  platform.child.kill();
  bare.child.kill();
}
