import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import proxyAddr from '@fastify/proxy-addr';
import { parse as parseQuery } from 'fast-querystring';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema.ts';
import type { Config } from './config.ts';
import type { Counter } from './limits/counter.ts';
import { createDispatcher, errorAnswer, type Answer } from './dispatch.ts';
import { forwardedClient } from './forwarded.ts';
import { operations } from './operations/index.ts';
import { openApiDocument } from './openapi.ts';

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

/** The RESTful path as Fastify's router reads it (percent-decoded); an undecodable one stays as sent. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

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
    // Requests Node's parser refuses (headers or URL too large, malformed) still get the spec's line.
    clientErrorHandler: (err: Error & { code?: string }, socket) => {
      const [status, text] =
        err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'request header fields too large'] : [400, 'malformed request'];
      const body = `${status} ${text}`;
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
            `content-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      } else socket.destroy();
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

  const dispatcher = createDispatcher({
    db: deps.db,
    config,
    counter: deps.counter,
    operations,
    log: app.log,
  });

  // Bodies are always form-encoded (spec §1.1.3); anything else is refused with 415 by Fastify.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, parseForm(body as string)),
  );

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
      app.log.error({ err }, 'request failed');
      a = errorAnswer(500, 'internal error');
    }
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
    const answer = await dispatcher.answer({
      name: path ? path.replaceAll('/', '.') : typeof action === 'string' ? action : undefined,
      rawQuery: q < 0 ? '' : req.url.slice(q + 1),
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
    const status = err.statusCode ?? 500;
    if (status === 415) return send(reply, errorAnswer(415, 'request body must be application/x-www-form-urlencoded'));
    if (status === 413) return send(reply, errorAnswer(413, 'request body is too large'));
    if (status >= 400 && status < 500) return send(reply, errorAnswer(400, 'malformed request'));
    req.log.error({ err }, 'request failed');
    return send(reply, errorAnswer(500, 'internal error'));
  });

  app.decorate('dispatcher', dispatcher);
  return app;
}
