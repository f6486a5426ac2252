import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'fast-querystring';
import { pino, type Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema.ts';
import type { Config } from './config.ts';
import type { Counter } from './limits/counter.ts';
import type { JobQueue } from './jobs/queue.ts';
import { createDispatcher, errorAnswer, type Answer, type Dispatcher } from './kernel/dispatch.ts';
import { SITE_KEY_HEADER, forwardedAddress, siteKeyVerdict } from './forwarded.ts';
import { clientIp, trustList } from '../net/trust-proxy.ts';
import { ApiError } from './errors.ts';
import { operations } from './catalog/index.ts';
import type { AnyOperation } from './kernel/table.ts';
import { openApiDocument } from './kernel/openapi.ts';
import { encodedBody } from './kernel/wire.ts';
import { compress, compressible } from './compress.ts';
import { preferredEncoding } from './kernel/encoding.ts';
import { createStreamHub, type StreamHub, type StreamSink } from './stream/hub.ts';
import { demoMedia, MEDIA_PATH } from './seed/media.ts';
import { DEMO_SPEAKER_NAMES, DEMO_SPONSOR_NAMES } from './seed/program.ts';

// One path for every call: node:http → the request's parts → the dispatcher → the answer. Fastify is
// gone: the dispatcher is the router (both call styles name an operation of the table), and GET/HEAD,
// most of the traffic, already bypassed Fastify, so it only parsed POST bodies while adding a second
// logger, a second path decoder and a second parse of TRUST_PROXY (now src/net/trust-proxy.ts, the
// site's too). What it gave is kept here, each with a test (tests/security/errors.test.ts,
// tests/api/dispatch.test.ts): the body size limit (413, by content-length before reading, and while
// reading), form-only bodies (415), plain-line answers for what Node's parser refuses (a URL over
// Node's 16 KB head is 414), and one masked log line per call (pino).

export interface AppDeps {
  readonly config: Config;
  readonly db: Kysely<DB>;
  readonly counter: Counter;
  /** Where writes add their jobs (the process's job queue). */
  readonly jobs: Pick<JobQueue, 'add'>;
  /** The process's logger (default: a new one on logStream). */
  readonly log?: Logger;
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  readonly logStream?: NodeJS.WritableStream;
}

/** The platform's logger: pino at LOG_LEVEL on `stream` (default stdout). */
export const platformLogger = (config: Config, stream?: NodeJS.WritableStream): Logger =>
  pino({ level: config.LOG_LEVEL }, stream ?? process.stdout);

/** The API's HTTP server and what the process around it needs of it. */
export interface PlatformApp {
  readonly server: Server;
  readonly dispatcher: Dispatcher;
  /** The streams open on this process: the bus's changes go to `publish`. */
  readonly streams: StreamHub;
  readonly log: Logger;
  /** Listens; answers the port (0 picks a free one). */
  listen(host: string, port: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Query parameters kept out of log lines, lower-case. Those whose value opens something: a token, a
 * password, an event's access code or its grant, a check-in code (it opens the door like a ticket),
 * BOUNCE_SECRET (event.email.bounce), an unsubscribe link's signature. And a person's address
 * (person.signIn's username, an unsubscribe link's email): whoever reads the logs needs neither.
 * `key` is masked only when it holds a report url's key (22 characters of base64url): elsewhere it
 * names the field an edit changes, which the log should show.
 */
const SECRET_PARAMS = new Set([
  'tokenid',
  'onboardingtoken',
  'password',
  'accesscode',
  'grant',
  'code',
  'secret',
  'sig',
  'username',
  'email',
]);

/**
 * Request URLs with every secret value replaced, for log lines. Names are compared as the query parser
 * reads them — percent-decoded, any case — so `token%49D=…` is masked as `tokenID=…` is.
 */
const REPORT_KEY = /^[A-Za-z0-9_-]{22}$/;

export function maskUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end < 0 ? undefined : end);
  const masked = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const raw = eq < 0 ? pair : pair.slice(0, eq);
    let name = raw;
    try {
      name = decodeURIComponent(raw.replaceAll('+', ' '));
    } catch {
      // not valid percent-encoding: compared as it is (the call is refused anyway)
    }
    const lower = name.toLowerCase();
    const secret = SECRET_PARAMS.has(lower) || (lower === 'key' && REPORT_KEY.test(pair.slice(eq + 1)));
    return secret ? `${raw}=***` : pair;
  });
  return `${url.slice(0, start + 1)}${masked.join('&')}${end < 0 ? '' : url.slice(end)}`;
}

/**
 * The operation a RESTful path names (`/event/get` → `event.get`), percent-decoded; a path that is not
 * valid percent-encoding is refused. Most paths hold neither `%` nor more than one `/`.
 */
function operationName(path: string): string {
  let name = path.slice(1);
  if (name.includes('%')) {
    try {
      name = decodeURIComponent(name);
    } catch {
      throw new ApiError(400, 'malformed path');
    }
  }
  return name.includes('/') ? name.replaceAll('/', '.') : name;
}

/** The parameters of an empty query string, as fast-querystring parses it (no prototype, nothing in it). */
const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>);

/**
 * Whether a query string or form body holds more than `limit` parameters (non-empty `&`-separated
 * pieces, as fast-querystring counts them). It stops at the limit, so refusing a 1 MiB body of
 * `a=&a=&…` costs a few thousand characters of scanning, before any parsing.
 */
function tooManyParams(s: string, limit: number): boolean {
  let count = 0;
  for (let start = 0; start <= s.length;) {
    const amp = s.indexOf('&', start);
    const end = amp < 0 ? s.length : amp;
    if (end > start && ++count > limit) return true;
    start = end + 1;
  }
  return false;
}

/** The spec's status line for the answers written straight to the socket. */
const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** The headers of every answer; one literal of one shape, not a copy of a constant and a merge. */
const headersOf = (type: string, length: number): Record<string, string | number> => ({
  // Tokens travel in URLs (spec §5.1): never let them leak through a Referer header.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'content-type': type,
  'content-length': length,
});

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/**
 * Requests Node's parser refuses (head or URL too large, malformed, too slow) still get the spec's
 * line, written to the socket since there is no response object. Node hands over the bytes it was
 * parsing: they start with the request line when the head came in one piece (always, for heads within
 * Node's 16 KB and for any sent in one write over loopback or from a proxy), which tells a HEAD (no
 * body) and a URL too long (no line end yet) apart.
 */
function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  // As Node's own handler: nothing can be written once a response on this socket has begun.
  const current = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) return void socket.destroy();
  const raw = err.rawPacket;
  const start = Buffer.isBuffer(raw) ? raw.subarray(0, 16 * 1024).toString('latin1') : '';
  const [status, text] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request timeout']
      : err.code !== 'HPE_HEADER_OVERFLOW'
        ? [400, 'malformed request']
        : /^[A-Z]+ /.test(start) && !start.includes('\n')
          ? [414, 'URL is too long']
          : [431, 'request header fields too large'];
  const body = `${status} ${text}`;
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
      `x-content-type-options: nosniff\r\ncache-control: no-store\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${start.startsWith('HEAD ') ? '' : body}`,
  );
}

/**
 * Where a stream's messages go: its response. One small object per stream whose methods are shared
 * (not three closures over the request's context, which would keep the request's answer, URL and
 * address alive for as long as the stream is open: docs/push.md "Memory").
 */
class ResponseSink implements StreamSink {
  readonly #res: ServerResponse;
  constructor(res: ServerResponse) {
    this.#res = res;
  }
  write(text: string): void {
    this.#res.write(text);
  }
  end(): void {
    this.#res.end();
  }
  get backlog(): number {
    return this.#res.writableLength;
  }
}

/** How long a shutdown waits for answers in flight before it ends their connections. */
const CLOSE_GRACE_MS = 2000;

export async function buildApp(deps: AppDeps): Promise<PlatformApp> {
  const { config } = deps;
  // The same reader as the config's check and the site's (src/net/trust-proxy.ts).
  const trusted = trustList(config.TRUST_PROXY);
  // The public site's calls name their visitor (SITE_API_KEY), so limits count per visitor.
  const verdictOf = siteKeyVerdict(config.SITE_API_KEY);
  const log = deps.log ?? platformLogger(config, deps.logStream);
  const logCalls = log.isLevelEnabled('info');
  const streams = createStreamHub({ db: deps.db, max: config.STREAM_MAX, heartbeatMs: config.STREAM_HEARTBEAT_MS });
  const dispatcher = createDispatcher({
    db: deps.db,
    config,
    counter: deps.counter,
    jobs: deps.jobs,
    streams,
    operations,
    log,
  });
  const openapi: Answer = {
    status: 200,
    type: 'application/json',
    body: encodedBody(JSON.stringify(openApiDocument(operations))),
  };
  // The demo's pictures (seed/media.ts), whose addresses the seeded speakers and sponsors carry.
  const media = demoMedia(DEMO_SPEAKER_NAMES, DEMO_SPONSOR_NAMES);
  // Each operation's own RESTful path, known at start: the common call names its operation without decoding.
  const routes = new Map(operations.map((op) => [`/${op.name.replaceAll('.', '/')}`, op.name]));
  const tooManyInQuery = new ApiError(400, `query has more than ${config.PARAM_LIMIT} parameters`);
  const tooLarge = new ApiError(413, `request body is too large, at most ${config.BODY_LIMIT} bytes`);
  const jsonTooLarge = (max: number) => new ApiError(413, `request body is too large, at most ${max} bytes`);
  // The operations that also take a JSON body (op.json: inbound webhooks), by name.
  const jsonBodies = new Map(operations.flatMap((op) => (op.json ? [[op.name, op.json] as const] : [])));

  /**
   * The form body of a call (spec §1.1.3), parsed by fast-querystring like the query: linear in its
   * length, a repeated key collecting its values in one list. GET and HEAD bodies are not read; any
   * other type than a form is 415; a body over BODY_LIMIT is 413, refused by its content-length
   * before it is read, or as soon as it passes the limit. Undefined when there is no body to read,
   * so a call without one does not wait for it.
   */
  function readForm(req: IncomingMessage, name: string | undefined): Promise<Record<string, unknown>> | undefined {
    if (req.method === 'GET' || req.method === 'HEAD') return undefined;
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (!chunked && (length === undefined || length === '0')) return undefined;
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase();
    const json = name === undefined ? undefined : jsonBodies.get(name);
    if (json && type === JSON_TYPE) {
      if (Number(length) > json.maxBytes) throw jsonTooLarge(json.maxBytes);
      return readJson(req, json);
    }
    if (type !== FORM) throw new ApiError(415, `request body must be ${FORM}${json ? ` or ${JSON_TYPE}` : ''}`);
    if (Number(length) > config.BODY_LIMIT) throw tooLarge;
    return readBody(req);
  }

  async function bodyText(req: IncomingMessage, limit: number, refusal: ApiError): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw refusal;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** A JSON body of an operation that takes one (op.json): parsed, checked and mapped by its schema. */
  async function readJson(req: IncomingMessage, json: NonNullable<AnyOperation['json']>) {
    const text = await bodyText(req, json.maxBytes, jsonTooLarge(json.maxBytes));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError(400, 'request body is not valid JSON');
    }
    const r = json.schema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0];
      const where = issue.path.length > 0 ? issue.path.join('.') : 'request body';
      throw new ApiError(400, `${where} ${issue.message}`.replace(/[\r\n]+/g, ' '));
    }
    return r.data as Record<string, unknown>;
  }

  async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const body = await bodyText(req, config.BODY_LIMIT, tooLarge);
    if (tooManyParams(body, config.PARAM_LIMIT))
      throw new ApiError(413, `request body has more than ${config.PARAM_LIMIT} parameters`);
    return parseQuery(body) as Record<string, unknown>;
  }

  /** The answer to a request: at once for the OpenAPI document and what is refused before the dispatcher. */
  function answer(req: IncomingMessage, url: string, clientIp: string): Answer | Promise<Answer> {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    if (path === '/openapi.json' && req.method === 'GET') return openapi;
    if (path.startsWith(MEDIA_PATH) && (req.method === 'GET' || req.method === 'HEAD')) {
      return media.get(path) ?? errorAnswer(404, 'no such picture');
    }
    const name = path !== '/' ? (routes.get(path) ?? operationName(path)) : undefined;
    if (tooManyParams(rawQuery, config.PARAM_LIMIT)) throw tooManyInQuery;
    const query = (rawQuery === '' ? NO_PARAMS : parseQuery(rawQuery)) as Record<string, unknown>;
    // (Given twice, `action` names no one operation: said as every other parameter says it.)
    if (name === undefined && Array.isArray(query.action)) throw new ApiError(400, 'action must be given once');
    const call = {
      name: name ?? (typeof query.action === 'string' ? query.action : undefined),
      rawQuery,
      method: req.method!,
      query,
      body: undefined as Record<string, unknown> | undefined,
      authorization: req.headers.authorization,
      clientIp,
      acceptEncoding: req.headers['accept-encoding'],
      ifNoneMatch: req.headers['if-none-match'],
      noCache: req.headers['cache-control']?.includes('no-cache') === true,
      lastEventID: typeof req.headers['last-event-id'] === 'string' ? req.headers['last-event-id'] : undefined,
    };
    const form = readForm(req, call.name);
    if (form === undefined) return dispatcher.answer(call);
    return form.then((body) => dispatcher.answer({ ...call, body }));
  }

  function failed(err: unknown): Answer {
    if (err instanceof ApiError) return errorAnswer(err.status, err.message);
    log.error({ err }, 'request failed');
    return errorAnswer(500, 'internal error');
  }

  // Every error of a call is answered; what could still throw (a socket gone while answering) is
  // logged, never left as an unhandled rejection that would end the process.
  function answerFailed(res: ServerResponse, err: unknown): void {
    log.error({ err }, 'answer failed');
    res.destroy();
  }

  function send(req: IncomingMessage, res: ServerResponse, a: Answer, url: string, ip: string, started: number): void {
    if (a.stream) return openStream(req, res, a, url, ip);
    // An answer the dispatcher did not encode (no cache: a member's answer, a write) is compressed here
    // when it is long and the client takes br or gzip — in zlib's thread pool, off the event loop.
    const encoding = compressible(a) ? preferredEncoding(req.headers['accept-encoding']) : undefined;
    if (encoding === undefined) return write(req, res, a, url, ip, started);
    compress(encoding, a.body).then(
      (body) => {
        const headers = { ...a.headers, 'content-encoding': encoding, vary: 'Accept-Encoding' };
        write(req, res, { ...a, body, headers }, url, ip, started);
      },
      (err: unknown) => answerFailed(res, err),
    );
  }

  function write(req: IncomingMessage, res: ServerResponse, a: Answer, url: string, ip: string, started: number): void {
    try {
      // A HEAD gets the headers only: Node's response for a HEAD request drops the body. A short text
      // body goes out as text, in one write with the head; a long one encoded (encodedBody).
      const body = typeof a.body === 'string' ? encodedBody(a.body) : a.body;
      const headers = headersOf(a.type, typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      if (a.headers !== undefined) Object.assign(headers, a.headers);
      // A body left unread (refused before or while reading) must not be taken for the next request.
      if (!req.complete) headers.connection = 'close';
      res.writeHead(a.status, headers);
      res.end(body);
      if (logCalls)
        log.info(
          {
            req: { method: req.method, url: maskUrl(url), ip },
            status: a.status,
            ms: Math.round(performance.now() - started),
          },
          'call',
        );
    } catch (err) {
      answerFailed(res, err);
    }
  }

  /** A stream's head goes out at once; the hub writes its messages until either side closes it. */
  function openStream(req: IncomingMessage, res: ServerResponse, a: Answer, url: string, ip: string): void {
    try {
      const headers: Record<string, string | number> = headersOf(a.type, 0);
      delete headers['content-length'];
      Object.assign(headers, a.headers);
      res.writeHead(a.status, headers);
      if (logCalls) log.info({ req: { method: req.method, url: maskUrl(url), ip }, status: a.status }, 'stream');
      if (req.method === 'HEAD') return void res.end();
      res.flushHeaders();
      req.socket.setNoDelay(true);
      // `on`, not `once`: a response closes once, and once's wrapper would be kept per stream.
      res.on('close', a.stream!(new ResponseSink(res)));
    } catch (err) {
      answerFailed(res, err);
    }
  }

  // The request's answer is sent as soon as it is known: at once when nothing is asynchronous (a
  // refusal), after one promise otherwise.
  const server = createServer((req, res) => {
    try {
      const started = logCalls ? performance.now() : 0;
      const url = req.url ?? '/';
      const verdict = verdictOf(req.headers);
      // A call that sent a site key hears whether it is this platform's (the site checks it at start).
      if (verdict) res.setHeader(SITE_KEY_HEADER, verdict);
      const forwarded = verdict === 'accepted' ? forwardedAddress(req.headers) : undefined;
      const ip = forwarded ?? clientIp(req, trusted);
      let pending: Answer | Promise<Answer>;
      try {
        pending = answer(req, url, ip);
      } catch (err) {
        pending = failed(err);
      }
      if (!(pending instanceof Promise)) return send(req, res, pending, url, ip, started);
      // send answers its own failures: one promise, nothing left to reject.
      void pending.then(
        (a) => send(req, res, a, url, ip, started),
        (err: unknown) => {
          try {
            send(req, res, failed(err), url, ip, started);
          } catch (e) {
            answerFailed(res, e);
          }
        },
      );
    } catch (err) {
      answerFailed(res, err);
    }
  });
  server.on('clientError', answerClientError);
  // Idle keep-alive connections close after 72 s (above common proxies' 60 s, so the proxy closes first).
  server.keepAliveTimeout = 72_000;

  return {
    server,
    dispatcher,
    streams,
    log,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Open streams end (their clients reconnect elsewhere with their Last-Event-ID): the server waits for no one.
        streams.close();
        server.closeIdleConnections();
        // A connection a client left half-open (seen after an aborted stream on a reused socket) would
        // hold the close for ever: past a grace for the answers in flight, every connection is ended.
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      }),
  };
}
