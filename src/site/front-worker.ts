// The front thread (started by front.ts): the site's public port. A public page the renderer's page
// cache holds as fresh is answered here from its copy (mirror.ts) — 200 in the encoding asked for, or
// 304 on a matching ETag — and so are the build's files (files.ts); every other request goes on to the
// renderer (server.ts) over loopback, with the visitor's address (hop.ts). A hop costs a few hundred
// microseconds of CPU (bench/site-hop.mjs): a file, which a first visit asks for several times, never
// pays it. Why a thread: a 304 costs a few microseconds of Node's own http and stream code, and in a
// process that also runs Astro, the platform client and the logger that code runs on V8 inline caches
// made slow by every other stream going through it (docs/site.md "Benchmark").
// Here it runs only the front's own requests. This module loads only what it needs for that: no Astro,
// no client, no logger (sirv for the files, undici for the hop).

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool, type Dispatcher } from 'undici';
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
// Kept-alive connections to the renderer: one per request in flight, reused after (closed before the
// renderer's keep-alive timeout, which it announces).
const renderer = new Pool(`http://127.0.0.1:${data.rendererPort}`);
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

/**
 * One request handed to the renderer and its answer carried back, on undici's dispatcher: about a
 * quarter less CPU per hop than node:http's client (docs/site.md, "The hop, measured and cut"). A GET or
 * HEAD whose connection broke before any answer (a kept-alive connection the renderer had just closed)
 * is sent once more.
 */
class Hop implements Dispatcher.DispatchHandler {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #retry: boolean;
  #controller: Dispatcher.DispatchController | undefined;
  #paused = false;

  constructor(req: IncomingMessage, res: ServerResponse, retry: boolean) {
    this.#req = req;
    this.#res = res;
    this.#retry = retry;
    // The visitor gone: the renderer stops too.
    res.once('close', () => {
      if (!res.writableFinished) this.#controller?.abort(new Error('the visitor went away'));
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#res.destroyed) controller.abort(new Error('the visitor went away'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // The visitor went away meanwhile: nothing to send ('close' aborts the request).
    if (this.#res.destroyed) return;
    const out = withoutHopByHop(headers);
    // The renderer ends a connection it will not read on (a body over the limit): so does the front.
    if (headers.connection === 'close') out.connection = 'close';
    this.#res.writeHead(statusCode, out);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#res.destroyed) return;
    // The visitor reads slower than the renderer writes: the renderer waits.
    if (!this.#res.write(chunk) && !this.#paused) {
      this.#paused = true;
      controller.pause();
      this.#res.once('drain', () => {
        this.#paused = false;
        controller.resume();
      });
    }
  }

  onResponseEnd(): void {
    this.#res.end();
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error & { code?: string }): void {
    const req = this.#req;
    const res = this.#res;
    // The visitor went away, and the request to the renderer with them (above): nothing to say.
    if (res.destroyed) return;
    // The answer was cut short: so is the visitor's.
    if (res.headersSent) return void res.destroy();
    const idempotent = (req.method === 'GET' || req.method === 'HEAD') && !hasBody(req);
    if (this.#retry && idempotent && (err.code === 'UND_ERR_SOCKET' || err.code === 'ECONNRESET'))
      return forward(req, res, false);
    // One line, as report.ts's failureLine writes them (not imported: it loads the client); no query.
    console.error(
      `site: 503 ${(req.url ?? '').split('?')[0]}: the renderer did not answer (${err.code ?? err.message})`,
    );
    sendText(res, 503, 'the site is not answering, try again in a moment', { 'retry-after': '5' });
  }
}

/** Whether the visitor's request has a body (a form's), which is streamed on as it comes. */
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/** The request to the renderer, its answer back to the visitor. */
function forward(req: IncomingMessage, res: ServerResponse, retry = true): void {
  renderer.dispatch(
    {
      path: req.url ?? '/',
      method: req.method as Dispatcher.HttpMethod,
      headers: hopHeaders(req.headers, req.socket.remoteAddress, data.secret),
      body: hasBody(req) ? req : null,
    },
    new Hop(req, res, retry),
  );
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
    void renderer.destroy();
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
