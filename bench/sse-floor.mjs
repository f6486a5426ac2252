// bench/sse-floor.mjs — the floor under bench/push.mjs's memory figure: what Node's own HTTP server costs
// per idle Server-Sent Events connection with nothing of Podium's (a bare server that writes the head and
// one comment), measured as bench:push measures Podium (bench/lib.mjs streamMemory: after a full GC,
// with the stream path warmed). bench:push runs it in the same run and prints its figure as a ratio to
// this one. Usage: npx node bench/sse-floor.mjs [--streams 2000]; `server` runs the bare server alone.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

/** Starts the bare server on `core` (bench/lib.mjs startPinned, with the memory probe); answers its url. */
export async function startFloor(core) {
  const { PROBE_ARGS, startPinned } = await import('./lib.mjs');
  const server = await startPinned(core, [...PROBE_ARGS, 'bench/sse-floor.mjs', 'server'], {}, { ipc: true });
  return { ...server, url: `http://127.0.0.1:${server.port}/` };
}

if (process.argv[2] === 'server') {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.flushHeaders();
    res.write('retry: 2000\n: open\n\n');
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening 127.0.0.1:${server.address().port}`));
} else if (import.meta.main) {
  const { values } = parseArgs({ options: { streams: { type: 'string', default: '2000' } } });
  const n = Number(values.streams);
  const { pinSelf, streamMemory } = await import('./lib.mjs');
  pinSelf(1);
  const floor = await startFloor(0);
  try {
    const m = await streamMemory(floor.child, floor.url, n);
    for (const s of m.streams) s.destroy();
    console.log(
      `bare node:http SSE, ${n} idle connections, per connection after a full GC: ` +
        `${m.all.rss.toFixed(1)} KB resident, ${m.all.heap.toFixed(1)} KB heap + external; ` +
        `one more (the second half alone): ${m.marginal.rss.toFixed(1)} KB resident, ` +
        `${m.marginal.heap.toFixed(1)} KB heap + external`,
    );
  } finally {
    floor.child.kill();
  }
}
