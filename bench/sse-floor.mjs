// bench/sse-floor.mjs — the floor under bench/push.mjs's memory figure: what Node's own HTTP server costs
// per idle Server-Sent Events connection with nothing of Podium's (a bare server that writes the head and
// one comment), measured after a forced GC in the server. Usage: node bench/sse-floor.mjs
import { createServer, request, Agent } from 'node:http';
import { fork } from 'node:child_process';
import { setTimeout } from 'node:timers';
if (process.argv[2] === 'server') {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.flushHeaders();
    res.write('retry: 2000\n: open\n\n');
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (m) => {
    if (m === 'mem') {
      globalThis.gc();
      setTimeout(() => {
        globalThis.gc();
        const u = process.memoryUsage();
        process.send({ rss: u.rss, heap: u.heapUsed, ext: u.external });
      }, 500);
    }
  });
} else {
  const child = fork(new URL(import.meta.url).pathname, ['server'], { execArgv: ['--expose-gc'] });
  const port = await new Promise((r) => child.once('message', (m) => r(m.port)));
  const mem = () =>
    new Promise((r) => {
      child.once('message', r);
      child.send('mem');
    });
  const before = await mem();
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const N = 2000;
  const reqs = [];
  for (let i = 0; i < N; i += 100)
    await Promise.all(
      Array.from(
        { length: 100 },
        () =>
          new Promise((res) => {
            const q = request({ port, host: '127.0.0.1', path: '/', agent }, (r) => {
              r.on('data', () => {});
              res();
            });
            reqs.push(q);
            q.end();
          }),
      ),
    );
  await new Promise((r) => setTimeout(r, 1000));
  const after = await mem();
  console.log(
    'bare node SSE per connection: rss KB',
    ((after.rss - before.rss) / N / 1024).toFixed(1),
    'heap KB',
    ((after.heap - before.heap) / N / 1024).toFixed(1),
    'external KB',
    ((after.ext - before.ext) / N / 1024).toFixed(1),
  );
  child.kill();
  process.exit(0);
}
