// Times calls from a process of its own, as a client elsewhere would: a test's platform runs in the
// test's process, where the client's own reading would wait behind whatever the platform does after it
// answered (a job run at once, on SQLite). Reads JSON from stdin — {calls: [{url, method, headers, body}],
// pauseMs} — makes the calls one after another, `pauseMs` apart, and prints [{status, ms}] (ms from
// sending to the answer's last byte).
import { performance } from 'node:perf_hooks';
import { text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';

const { calls, pauseMs = 0 } = JSON.parse(await text(process.stdin));
const out = [];
for (const c of calls) {
  if (pauseMs > 0 && out.length > 0) await sleep(pauseMs);
  const t = performance.now();
  const res = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body });
  await res.arrayBuffer();
  out.push({ status: res.status, ms: performance.now() - t });
}
process.stdout.write(JSON.stringify(out));
