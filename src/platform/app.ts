import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import proxyAddr from '@fastify/proxy-addr';
import { parse as parseQuery } from 'fast-querystring';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema.ts';
import type { Config } from './config.ts';
import type { Counter } from './limits/counter.ts';
import { createDispatcher, errorAnswer, type Answer } from './kernel/dispatch.ts';
import { forwardedClient } from './forwarded.ts';
import { ApiError } from './errors.ts';
import { operations } from './catalog/index.ts';
import { openApiDocument } from './kernel/openapi.ts';

export interface AppDeps {
  readonly config: Config;
  readonly db: Kysely<DB>;
  readonly counter: Counter;
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  readonly logStream?: NodeJS.WritableStream;
}

const SECRET_PARAMS = /([?&](?:tokenID|onboardingToken|password|accessCode)=)[^&#]*/gi;
/** Request URLs with every secret replaced, for log lines. */
export const maskUrl = (url: string) => url.replace(SECRET_PARAMS, '$1***');

/** The RESTful path as Fastify's router reads it (percent-decoded); an undecodable one is refused, as Fastify does. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new ApiError(400, 'malformed path');
  }
}

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

// Set here rather than in an onSend hook: an async hook on every request costs measurable throughput.
const COMMON_HEADERS = {
  // Tokens travel in URLs (spec §5.1): never let them leak through a Referer header.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

function send(reply: FastifyReply, a: Answer): FastifyReply {
  reply.code(a.status).headers(COMMON_HEADERS).header('content-type', a.type);
  if (a.headers) reply.headers(a.headers);
  return reply.send(a.body);
}

/** The Fastify app: both call styles (spec §1.1) on one dispatcher, plus /openapi.json. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const trusted = config.TRUST_PROXY
    ? proxyAddr.compile(config.TRUST_PROXY.split(',').map((s) => s.trim()))
    : undefined;
  // The public site's calls name their visitor (SITE_API_KEY), so limits count per visitor.
  const forwarded = forwardedClient(config.SITE_API_KEY);
  const app = Fastify({
    // GET and HEAD calls carry no body, so they need nothing of Fastify's request pipeline: they go
    // straight to the dispatcher (the same one, with the same query parser and client address as
    // Fastify's), which is most of the platform's traffic and ~10% more throughput. Everything else,
    // and any GET that does carry a body, goes through Fastify.
    serverFactory: (handler) =>
      createServer((req, res) => {
        const bodiless = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
        if (bodiless && (req.method === 'GET' || req.method === 'HEAD') && !req.url?.startsWith('/openapi.json'))
          void fastGet(req, res);
        else handler(req, res);
      }),
    // Every method reaches the dispatcher, which answers 405 with Allow for those an operation lacks.
    exposeHeadRoutes: false,
    // Requests Node's parser refuses (head or URL too large, malformed, too slow) still get the spec's
    // line, written to the socket since there is no response object. Node hands over the bytes it was
    // parsing: they start with the request line when the head came in one piece (always, for heads
    // within Node's 16 KB and for any sent in one write over loopback or from a proxy), which tells a
    // HEAD (no body) and a URL too long (no line end yet) apart.
    clientErrorHandler: (err: Error & { code?: string }, socket) => {
      // As Node's own handler: nothing can be written once a response on this socket has begun.
      const current = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
      if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) return void socket.destroy();
      const raw = (err as { rawPacket?: unknown }).rawPacket;
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
    },
    // What Fastify's router answers itself (a path that is not valid percent-encoding) is the line too.
    frameworkErrors: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      if (err.code === 'FST_ERR_BAD_URL') return send(reply, errorAnswer(400, 'malformed path'));
      if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, errorAnswer(414, 'path is too long'));
      req.log.error({ err }, 'request failed');
      return send(reply, errorAnswer(500, 'internal error'));
    },
    // Fastify's own query parser (fast-querystring, as the GET fast path), behind the same count:
    // a query over PARAM_LIMIT is parsed as empty here and refused by the handler.
    routerOptions: {
      querystringParser: (s: string) => (tooManyParams(s, config.PARAM_LIMIT) ? {} : parseQuery(s)),
    },
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY ? config.TRUST_PROXY.split(',').map((s) => s.trim()) : false,
    // One line per call from onResponse below (with the URL masked) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level: config.LOG_LEVEL,
      stream: deps.logStream,
      serializers: {
        req: (req: FastifyRequest) => ({ method: req.method, url: maskUrl(req.url), ip: req.ip }),
      },
    },
  });

  const tooManyInQuery = new ApiError(400, `query has more than ${config.PARAM_LIMIT} parameters`);
  const dispatcher = createDispatcher({
    db: deps.db,
    config,
    counter: deps.counter,
    operations,
    log: app.log,
  });

  // Bodies are always form-encoded (spec §1.1.3); anything else is refused with 415 by Fastify. They
  // are parsed like queries, by fast-querystring: linear in length, a repeated key appends to one array.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    if (tooManyParams(body as string, config.PARAM_LIMIT))
      done(new ApiError(413, `request body has more than ${config.PARAM_LIMIT} parameters`), undefined);
    else done(null, parseQuery(body as string));
  });

  const logCalls = ['info', 'debug', 'trace'].includes(config.LOG_LEVEL);
  if (logCalls) {
    app.addHook('onResponse', (req, reply, done) => {
      req.log.info({ req, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'call');
      done();
    });
  }

  // Hoisted: the server above calls it, once the dispatcher exists.
  async function fastGet(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = req.url ?? '/';
    const ip = forwarded(req.headers) ?? (trusted ? proxyAddr(req, trusted) : req.socket.remoteAddress) ?? '';
    let a: Answer;
    try {
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const rawQuery = q < 0 ? '' : url.slice(q + 1);
      if (tooManyParams(rawQuery, config.PARAM_LIMIT)) throw tooManyInQuery;
      const query = parseQuery(rawQuery) as Record<string, unknown>;
      const action = query.action;
      a = await dispatcher.answer({
        name:
          path !== '/'
            ? decodePath(path.slice(1)).replaceAll('/', '.')
            : typeof action === 'string'
              ? action
              : undefined,
        rawQuery,
        method: req.method!,
        query,
        body: undefined,
        authorization: req.headers.authorization,
        clientIp: ip,
      });
    } catch (err) {
      if (err instanceof ApiError) a = errorAnswer(err.status, err.message);
      else {
        app.log.error({ err }, 'request failed');
        a = errorAnswer(500, 'internal error');
      }
    }
    // A HEAD gets the headers only: Node's response for a HEAD request drops the body (here and in Fastify).
    const body = typeof a.body === 'string' ? Buffer.from(a.body) : a.body;
    res.writeHead(a.status, {
      ...COMMON_HEADERS,
      'content-type': a.type,
      'content-length': body.byteLength,
      ...a.headers,
    });
    res.end(body);
    if (logCalls)
      app.log.info(
        {
          req: { method: req.method, url: maskUrl(url), ip },
          status: a.status,
          ms: Math.round(performance.now() - started),
        },
        'call',
      );
  }

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const path = (req.params as { '*'?: string })['*'];
    const query = req.query as Record<string, unknown>;
    const action = query.action;
    const q = req.url.indexOf('?');
    const rawQuery = q < 0 ? '' : req.url.slice(q + 1);
    if (tooManyParams(rawQuery, config.PARAM_LIMIT)) return send(reply, errorAnswer(400, tooManyInQuery.message));
    const answer = await dispatcher.answer({
      name: path ? path.replaceAll('/', '.') : typeof action === 'string' ? action : undefined,
      rawQuery,
      method: req.method,
      query,
      body: req.body as Record<string, unknown> | undefined,
      authorization: req.headers.authorization,
      clientIp: forwarded(req.headers) ?? req.ip,
    });
    return send(reply, answer);
  };

  const openapi = JSON.stringify(openApiDocument(operations));
  app.get('/openapi.json', (_req, reply) => send(reply, { status: 200, type: 'application/json', body: openapi }));
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
  app.route({ method: methods, url: '/', handler: handle });
  app.route({ method: methods, url: '/*', handler: handle });

  app.setNotFoundHandler((_req, reply) => send(reply, errorAnswer(404, 'not found')));
  app.setErrorHandler((err: { statusCode?: number; code?: string }, req, reply) => {
    if (err instanceof ApiError) return send(reply, errorAnswer(err.status, err.message));
    const status = err.statusCode ?? 500;
    if (status === 415) return send(reply, errorAnswer(415, 'request body must be application/x-www-form-urlencoded'));
    if (status === 413)
      return send(reply, errorAnswer(413, `request body is too large, at most ${config.BODY_LIMIT} bytes`));
    if (status >= 400 && status < 500) return send(reply, errorAnswer(400, 'malformed request'));
    req.log.error({ err }, 'request failed');
    return send(reply, errorAnswer(500, 'internal error'));
  });

  app.decorate('dispatcher', dispatcher);
  return app;
}
