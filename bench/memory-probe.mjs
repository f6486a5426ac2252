// bench/memory-probe.mjs — preloaded into a server a benchmark measures (bench/lib.mjs PROBE_ARGS:
// node --expose-gc --import ./bench/memory-probe.mjs …), so the server's own code holds nothing of the
// benchmark. On the IPC message { probe: 'memory' } it collects all the garbage it can — V8's
// "last resort" full GC, which also shrinks the young generation back to its least size, as V8's own
// memory reducer does in an idle process — twice (the second after the first's finalizers ran), lets
// the process settle, and answers process.memoryUsage() with the resident set from /proc (Linux).
// { probe: 'snapshot', file } writes a heap snapshot there.
import { readFileSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { writeHeapSnapshot } from 'node:v8';

/** VmRSS of this process in bytes; process.memoryUsage().rss elsewhere. */
function residentSet(fallback) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  } catch {
    return fallback;
  }
}

const gc = globalThis.gc;
if (process.send && gc) {
  process.on('message', async (m) => {
    // A heap snapshot (after a GC) in `m.file`, to tell what the streams hold (compare two in DevTools).
    if (m?.probe === 'snapshot') return process.send({ probe: 'snapshot', file: writeHeapSnapshot(m.file) });
    if (m?.probe !== 'memory') return;
    for (let i = 0; i < 2; i++) {
      gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      await setTimeout(200);
    }
    const u = process.memoryUsage();
    process.send({
      probe: 'memory',
      rss: residentSet(u.rss),
      heapUsed: u.heapUsed,
      external: u.external,
    });
  });
  // The IPC channel alone keeps no server alive.
  process.channel?.unref();
}
