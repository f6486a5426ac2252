// The front thread (started by front.ts): the site's public port. A public page the renderer's page
// cache holds as fresh is answered here from its copy (mirror.ts) — 200 in the encoding asked for, or
// 304 on a matching ETag — and so are the build's files (files.ts); every other request is handed to
// the renderer (server.ts, the main thread) as a message with the visitor's address, and its answer
// comes back the same way (ask.ts). Why a thread: a 304 costs a few microseconds of Node's own http and
// stream code, and in a process that also runs Astro, the platform client and the logger that code runs
// on V8 inline caches made slow by every other stream going through it (docs/site.md "Benchmark").
// Here it runs only the front's own requests. This module loads only what it needs for that: no Astro,
// no client, no logger (sirv for the files).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type { Answer, Ask } from './ask.ts';
import { readBody } from './astro-http.ts';
import { sendable } from '../net/bytes.ts';
import { takes } from './etag.ts';
import { siteFiles } from './files.ts';
import { FrontPages, type MirrorMessage } from './mirror.ts';
import { BODY_LIMIT, sendText, sendTooLarge } from './net.ts';
import { pageKeyOfRequest } from './pagekey.ts';

export interface FrontData {
  host: string;
  port: number;
  maxBytes: number;
  keepAliveTimeout: number;
  /** The build's files (the client/ folder of the site's copy of dist/). */
  files: string;
}

/** From the renderer: the page cache's changes, an answer, or close. */
export type ToFront = MirrorMessage | Answer | { type: 'close'; graceMs: number };
/** To the renderer: listening (its port), or could not (one line), or closed; a request, or its visitor gone. */
export type FromFront =
  | { type: 'listening'; port: number }
  | { type: 'failed'; error: ListenFailure }
  | { type: 'closed' }
  | Ask
  | { type: 'gone'; id: number };

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
const files = siteFiles(data.files);
/** The visitors whose requests the renderer has, by the id their answer comes back with. */
const waiting = new Map<number, ServerResponse>();
let lastId = 0;

function answer(req: IncomingMessage, res: ServerResponse): boolean {
  const h = req.headers;
  const key = pageKeyOfRequest(h.host, req.url ?? '/', h.cookie, h['accept-language']);
  const page = key === undefined ? undefined : pages.lookup(key);
  if (!page) return false;
  const taken = takes(page.etag, page.compressible, h['if-none-match'], h['accept-encoding']);
  if (taken === 304) {
    res.writeHead(304, page.headers304);
    res.end();
    return true;
  }
  // A variant not made yet is made by the renderer, which then sends it here.
  const sent = taken ? page.variants[taken] : page;
  if (!sent) return false;
  res.writeHead(page.status, sent.headers);
  res.end(req.method === 'HEAD' ? undefined : sent.body);
  return true;
}

/**
 * The request handed to the renderer as a message (a form's body read here first, at most BODY_LIMIT):
 * no loopback connection, no HTTP written and parsed again (docs/site.md, "The hop, measured and cut").
 */
async function toRenderer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body: Buffer | undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    if (Number(req.headers['content-length']) > BODY_LIMIT) return sendTooLarge(res);
    body = await readBody(req, BODY_LIMIT);
    if (res.destroyed) return;
    if (body === undefined) return sendTooLarge(res);
  }
  const id = ++lastId;
  waiting.set(id, res);
  // The visitor gone before the answer's end: the renderer stops sending it.
  res.once('close', () => {
    if (waiting.delete(id)) port.postMessage({ type: 'gone', id } satisfies FromFront);
  });
  // (a small form's bytes are a view on Buffer's 64 KB pool: src/net/bytes.ts)
  const transfer: ArrayBuffer[] = [];
  const ask: Ask = {
    type: 'ask',
    id,
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    peer: req.socket.remoteAddress,
    body: body && sendable(body, transfer),
  };
  port.postMessage(ask satisfies FromFront, transfer);
}

/** The renderer's answer (or part of it) to the visitor it is for, if still there. */
function answered(message: Answer): void {
  const res = waiting.get(message.id);
  if (!res) return;
  try {
    if (message.type === 'cut') {
      // The answer failed half-way: the visitor must not take the part for the whole.
      waiting.delete(message.id);
      return void res.destroy();
    }
    if (message.type === 'head') res.writeHead(message.status, message.headers);
    if (!message.end) {
      if (message.body) res.write(message.body);
      return;
    }
    waiting.delete(message.id);
    res.end(message.body);
  } catch (err) {
    // One answer's failure (a header node:http refuses) is its own, not the thread's.
    waiting.delete(message.id);
    failed(res.req, res, err);
  }
}

const server = createServer((req, res) => {
  try {
    const method = req.method;
    const hand = () => toRenderer(req, res).catch((err: unknown) => failed(req, res, err));
    if (method !== 'GET' && method !== 'HEAD') return void hand();
    if (answer(req, res)) return;
    files(req, res, hand);
  } catch (err) {
    failed(req, res, err);
  }
});
server.keepAliveTimeout = data.keepAliveTimeout;

/** One request's failure is its own: a throw here would end the thread, and every visitor's connection. */
function failed(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  // One line, as report.ts's failureLine writes them (not imported: it loads the client); no query.
  console.error(`site: 500 ${(req.url ?? '').split('?')[0]}: ${String(err).split('\n')[0]}`);
  if (res.headersSent) return void res.destroy();
  sendText(res, 500, 'internal error');
}

port.on('message', (message: ToFront) => {
  if (message.type === 'head' || message.type === 'body' || message.type === 'cut') return answered(message);
  if (message.type !== 'close') return pages.apply(message);
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections();
  const grace = setTimeout(() => server.closeAllConnections(), message.graceMs);
  void closed.then(() => {
    clearTimeout(grace);
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
