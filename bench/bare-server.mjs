// The limit: a bare node:http server answering bodies held in memory, with the same headers size.
import { createServer } from 'node:http';

const bodies = JSON.parse(process.env.BODIES ?? '{}');
const server = createServer((req, res) => {
  const body = bodies[req.url] ?? '{"count":"0","data":[]}';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
