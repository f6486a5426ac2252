// The limit: a bare node:http server answering bodies held in memory, with the same headers size.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

// A file rather than an environment variable: one variable cannot hold a 300-activity program.
const bodies = JSON.parse(readFileSync(process.env.BODIES_FILE, 'utf8'));
const server = createServer((req, res) => {
  const body = bodies[req.url] ?? '{"count":"0","data":[]}';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
