// The front thread (started by front.ts): the site's public port. A public page the renderer's page
// cache holds as fresh is answered here from its copy (mirror.ts) — 200 in the encoding asked for, or
// 304 on a matching ETag — and so are the build's files (files.ts); every other request goes on to the
// renderer (server.ts) over loopback, with the visitor's address (hop.ts). A hop costs a few hundred
// microseconds of CPU (bench/site-hop.mjs): a file, which a first visit asks for several times, never
// pays it. Why a thread: a 304 costs a few microseconds of Node's own http and
// stream code, and in a process that also runs Astro, the platform client and the logger that code
// runs on V8 inline caches made slow by every other stream going through it (docs/site.md "Benchmark").
// Here it runs only the front's own requests. This module loads only what it needs for that: no Astro,
// no client, no logger (sirv for the files).

import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { encodingOf } from './compress.ts';
import { notModified } from './etag.ts';
import { siteFiles } from './files.ts';
import { hopHeaders, withoutHopByHop } from './hop.ts';
import { FrontPages, type MirrorMessage } from './mirror.ts';
import { sendText } from './net.ts';
import { pageKeyOfRequest } from './pagekey.ts';

export interface FrontData {
  host: string;
  port: number;
  /** The renderer's loopback port. */
  rendererPort: number;
  secret: string;
  maxBytes: number;
  keepAliveTimeout: number;
  /** The build's files (the client/ folder of the site's copy of dist/). */
  files: string;
}

/** From the renderer: the page cache's changes, or close. */
export type ToFront = MirrorMessage | { type: 'close'; graceMs: number };
/** To the renderer: listening (its port), or could not (one line), or closed. */
export type FromFront =
  { type: 'listening'; port: number } | { type: 'failed'; error: ListenFailure } | { type: 'closed' };

/** Why listening failed, as the CLI reads it (src/cli/errors.ts). */
export interface ListenFailure {
  message: string;
  code?: string;
  address?: string;
  port?: number;
}

const data = workerData as FrontData;
const port = parentPort!;
const pages = new FrontPages(data.maxBytes);
// Kept-alive connections to the renderer: one per request in flight, reused after.
const agent = new Agent({ keepAlive: true });
const files = siteFiles(data.files);

function answer(req: IncomingMessage, res: ServerResponse): boolean {
  const h = req.headers;
  const key = pageKeyOfRequest(h.host, req.url ?? '/', h.cookie, h['accept-language']);
  const page = key === undefined ? undefined : pages.lookup(key);
  if (!page) return false;
  const inm = h['if-none-match'];
  if (inm !== undefined && (inm === page.etag || notModified(inm, page.etag))) {
    res.writeHead(304, page.headers304);
    res.end();
    return true;
  }
  const encoding = page.compressible ? encodingOf(h['accept-encoding']) : undefined;
  // A variant not made yet is made by the renderer, which then sends it here.
  const sent = encoding ? page.variants[encoding] : page;
  if (!sent) return false;
  res.writeHead(page.status, sent.headers);
  res.end(req.method === 'HEAD' ? undefined : sent.body);
  return true;
}

/** The request to the renderer, its answer back; a GET or HEAD that met a kept-alive connection just closed is sent again. */
function forward(req: IncomingMessage, res: ServerResponse, retry = true): void {
  const upstream = request(
    {
      host: '127.0.0.1',
      port: data.rendererPort,
      method: req.method,
      path: req.url,
      headers: hopHeaders(req.headers, req.socket.remoteAddress, data.secret),
      agent,
    },
    (reply) => {
      // The visitor went away meanwhile: nothing to send (piping to a destroyed stream throws).
      if (res.destroyed) return void reply.resume();
      const headers = withoutHopByHop(reply.headers);
      // The renderer ends a connection it will not read on (a body over the limit): so does the front.
      if (reply.headers.connection === 'close') headers.connection = 'close';
      res.writeHead(reply.statusCode ?? 502, headers);
      // pipe, not pipeline: pipeline's end aborts a signal of its own, and the DOMException that makes
      // was a tenth of a hop's CPU (bench/site-hop.mjs). The visitor gone is handled below; an answer the
      // renderer cut short is cut short for the visitor too.
      reply.pipe(res);
      reply.once('error', () => res.destroy());
      reply.once('close', () => {
        if (!reply.complete) res.destroy();
      });
    },
  );
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    // The visitor went away, and the request to the renderer with them (below): nothing to say.
    if (res.destroyed) return;
    const idempotent = req.method === 'GET' || req.method === 'HEAD';
    if (retry && idempotent && upstream.reusedSocket && err.code === 'ECONNRESET' && !res.headersSent)
      return forward(req, res, false);
    if (res.headersSent) return void res.destroy();
    // One line, as report.ts's failureLine writes them (not imported: it loads the client); no query.
    console.error(
      `site: 503 ${(req.url ?? '').split('?')[0]}: the renderer did not answer (${err.code ?? err.message})`,
    );
    sendText(res, 503, 'the site is not answering, try again in a moment', { 'retry-after': '5' });
  });
  // The visitor gone: the renderer stops too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  if (req.method === 'GET' || req.method === 'HEAD') upstream.end();
  else req.pipe(upstream);
}

const server = createServer((req, res) => {
  try {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return forward(req, res);
    if (answer(req, res)) return;
    files(req, res, () => forward(req, res));
  } catch (err) {
    // One request's failure is its own: a throw here would end the thread, and every visitor's connection.
    console.error(`site: 500 ${(req.url ?? '').split('?')[0]}: ${String(err).split('\n')[0]}`);
    if (res.headersSent) return void res.destroy();
    sendText(res, 500, 'internal error');
  }
});
server.keepAliveTimeout = data.keepAliveTimeout;

port.on('message', (message: ToFront) => {
  if (message.type !== 'close') return pages.apply(message);
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections();
  const grace = setTimeout(() => server.closeAllConnections(), message.graceMs);
  void closed.then(() => {
    clearTimeout(grace);
    agent.destroy();
    port.postMessage({ type: 'closed' } satisfies FromFront);
  });
});

server.once('error', (err: NodeJS.ErrnoException & { address?: string; port?: number }) => {
  const error = { message: err.message, code: err.code, address: err.address, port: err.port };
  port.postMessage({ type: 'failed', error } satisfies FromFront);
});
server.listen(data.port, data.host, () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : data.port;
  port.postMessage({ type: 'listening', port: bound } satisfies FromFront);
});
