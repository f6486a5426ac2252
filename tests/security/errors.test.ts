import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

// Issue 9 item 6: every error, from every layer (Node's HTTP parser, the HTTP front's path and body
// readers, the size limits, the dispatcher), is one `text/plain` line `NNN message`, whatever the
// caller sent; a HEAD answer never has a body. Requests go over a raw socket (node:net), so they
// are sent byte for byte as written (fetch would refuse or normalise most of them) and the answer
// is read as the bytes the server wrote.

const { BODY_LIMIT, PARAM_LIMIT } = loadConfig({});
const FORM = 'application/x-www-form-urlencoded';
/** Over Node's 16 KB limit for a request head. */
const OVERSIZE = 'x'.repeat(20_000);
/** One line: the status, a space, then printable text; no C0/C1 controls, line or bidi separators. */
const ONE_LINE = /^(\d{3}) \S[^\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/u;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as it is and reads the answer until the server closes (every request asks it to). */
function exchange(url: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (d: Buffer) => chunks.push(d));
    // A reset after the answer was read (the server closes while a body is still arriving) is fine.
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)));
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`not an HTTP answer: ${JSON.stringify(raw.slice(0, 200))}`));
      const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.from(raw.slice(end + 4), 'latin1').toString('utf8'),
      });
    });
    socket.write(request);
  });
}

/** A request as bytes: the request line, the given headers, `connection: close`, then the body. */
function request(method: string, target: string, headers: Record<string, string> = {}, body = ''): string {
  const head = Object.entries({ host: 'podium.test', ...headers, connection: 'close' })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `${method} ${target} HTTP/1.1\r\n${head}\r\n${body}`;
}

const form = (body: string) => ({ 'content-type': FORM, 'content-length': String(Buffer.byteLength(body)) });

/** What a case needs from the set-up: an operator token and its company (for a `key` echo). */
interface Ctx {
  token: string;
  companyID: string;
}
interface Case {
  label: string;
  /** Builds the request for a method; a case is sent with each of its methods. */
  send: (method: string, c: Ctx) => string;
  methods: readonly string[];
  status: number;
  /** The message, when the case is about what it says; else only its shape is checked. */
  line?: RegExp;
}

const CRLF = '%0D%0A';
/** Characters that must never reach an error line, percent-encoded as a caller would send them. */
const CONTROLS: readonly [string, string][] = [
  ['CR LF', CRLF],
  ['NUL-free C0 (ESC, TAB, BEL)', '%1B%5B31m%09%07'],
  ['C1 NEL', '%C2%85'],
  ['line separator U+2028', '%E2%80%A8'],
  ['bidi override U+202E', '%E2%80%AE'],
];

const CASES: readonly Case[] = [
  // The one request path refuses a path that is not percent-encoding, whatever the method.
  {
    label: 'malformed path',
    send: (m) => request(m, '/%zz', m === 'GET' || m === 'HEAD' ? {} : form('')),
    methods: ['GET', 'HEAD', 'POST', 'PUT'],
    status: 400,
    line: /^400 malformed path$/,
  },
  {
    label: 'bad percent-encoding in a path (invalid UTF-8)',
    send: (m) => request(m, '/event/get%E0%A4%A', m === 'POST' ? form('') : {}),
    methods: ['GET', 'HEAD', 'POST'],
    status: 400,
    line: /^400 malformed path$/,
  },
  {
    label: 'bad percent-encoding in action',
    send: (m) => request(m, '/?action=api.p%zzing', m === 'POST' ? form('') : {}),
    methods: ['GET', 'HEAD', 'POST'],
    status: 404,
    line: /^404 operation api\.p%zzing does not exist$/,
  },
  // Values echoed into a message (selection, action, a REST path, key) lose every control character.
  ...CONTROLS.flatMap(([what, chars]): Case[] => [
    {
      label: `${what} in selection`,
      send: (m) => request(m, `/?action=company.event.find&companyID=1&selection=all${chars}x`),
      methods: ['GET', 'HEAD'],
      status: 400,
      line: /^400 selection has an unknown value/,
    },
    {
      label: `${what} in action`,
      send: (m) => request(m, `/?action=api${chars}ping`, m === 'POST' ? form('') : {}),
      methods: ['GET', 'HEAD', 'POST'],
      status: 404,
      line: /^404 operation api.*ping does not exist$/,
    },
    {
      label: `${what} in a RESTful path`,
      send: (m) => request(m, `/api/pi${chars}ng`, m === 'POST' ? form('') : {}),
      methods: ['GET', 'POST'],
      status: 404,
    },
    {
      label: `${what} in key`,
      send: (m, c) =>
        request(
          m,
          `/company/edit?companyID=${c.companyID}&key=a${chars}b&tokenID=${c.token}`,
          form('value=1'),
          'value=1',
        ),
      methods: ['POST'],
      status: 400,
      line: /^400 key a.*b cannot be edited here; keys: \w/,
    },
  ]),
  // Node's HTTP parser refuses these before any route; the answer is still the line (HEAD: no body).
  {
    label: 'oversize URL',
    send: (m) => request(m, `/?action=api.ping&q=${OVERSIZE}`),
    methods: ['GET', 'HEAD'],
    status: 414,
    line: /^414 URL is too long$/,
  },
  {
    label: 'oversize headers',
    send: (m) => request(m, '/?action=api.ping', { 'x-big': OVERSIZE }),
    methods: ['GET', 'HEAD'],
    status: 431,
    line: /^431 request header fields too large$/,
  },
  {
    label: 'a header line that is not a header',
    send: (m) => request(m, '/?action=api.ping', { 'not a header': 'x' }),
    methods: ['GET', 'HEAD'],
    status: 400,
    line: /^400 malformed request$/,
  },
  {
    label: 'a content-length that is not a number',
    send: (m) => request(m, '/?action=api.ping', { 'content-length': 'abc' }),
    methods: ['POST', 'HEAD'],
    status: 400,
    line: /^400 malformed request$/,
  },
  // PARAM_LIMIT, in the query (every method) and in the body.
  {
    label: 'too many parameters in the query',
    send: (m) => request(m, `/?action=api.ping${'&a='.repeat(PARAM_LIMIT)}`, m === 'POST' ? form('') : {}),
    methods: ['GET', 'HEAD', 'POST'],
    status: 400,
    line: new RegExp(`^400 query has more than ${PARAM_LIMIT} parameters$`),
  },
  {
    label: 'too many parameters in the body',
    send: (m) => request(m, '/?action=api.ping', form('a=&'.repeat(PARAM_LIMIT + 1)), 'a=&'.repeat(PARAM_LIMIT + 1)),
    methods: ['POST'],
    status: 413,
    line: new RegExp(`^413 request body has more than ${PARAM_LIMIT} parameters$`),
  },
  // The body reader and its size limit (no body is read on GET or HEAD).
  {
    label: 'wrong content type',
    send: (m) =>
      request(m, '/person/signIn?username=x', { 'content-type': 'application/json', 'content-length': '2' }, '{}'),
    methods: ['POST', 'PUT'],
    status: 415,
    line: /^415 request body must be application\/x-www-form-urlencoded$/,
  },
  {
    label: 'body too large (by its content-length, refused before it is read)',
    send: (m) =>
      request(m, '/person/signIn?username=x', { 'content-type': FORM, 'content-length': String(BODY_LIMIT + 1) }),
    methods: ['POST', 'PUT'],
    status: 413,
    line: new RegExp(`^413 request body is too large, at most ${BODY_LIMIT} bytes$`),
  },
  {
    label: 'body too large while it is read (chunked: no content-length to refuse it by)',
    send: (m) => {
      const chunk = 'a='.padEnd(BODY_LIMIT + 10, 'x');
      const chunked = `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`;
      return request(m, '/person/signIn?username=x', { 'content-type': FORM, 'transfer-encoding': 'chunked' }, chunked);
    },
    methods: ['POST'],
    status: 413,
    line: new RegExp(`^413 request body is too large, at most ${BODY_LIMIT} bytes$`),
  },
  {
    label: 'a form body with a charset is a form',
    send: (m) =>
      request(m, '/?action=nope', { 'content-type': `${FORM}; charset=UTF-8`, 'content-length': '3' }, 'a=1'),
    methods: ['POST'],
    status: 404,
    line: /^404 operation nope does not exist$/,
  },
  // Errors from the dispatcher, with and without a (empty) body.
  {
    label: 'unknown operation',
    send: (m) => request(m, '/?action=nope', m === 'POST' ? form('') : {}),
    methods: ['GET', 'HEAD', 'POST'],
    status: 404,
    line: /^404 operation nope does not exist$/,
  },
  {
    label: 'HEAD of an error (a HEAD with a body, which is not read)',
    send: (m) => request(m, '/?action=nope', form('')),
    methods: ['HEAD'],
    status: 404,
  },
  {
    label: 'method not allowed',
    send: (m) => request(m, '/company/get?companyID=1', m === 'GET' ? {} : form('')),
    methods: ['PUT', 'DELETE', 'PATCH'],
    status: 405,
    line: /^405 company\.get accepts GET$/,
  },
];

const ROWS = CASES.flatMap((c) => c.methods.map((method) => [`${method} ${c.label}`, method, c] as const));

describe.each(STORES)('every error is one plain line, HEAD without a body (%s)', (store) => {
  let p: TestPlatform;
  let ctx: Ctx;
  beforeAll(async () => {
    p = await startTestPlatform(store);
    const { operator, companyID } = await operatorWithCompany(p, 'Errors Inc');
    ctx = { token: operator, companyID };
  });
  afterAll(() => p?.close());

  it.each(ROWS)('%s', async (_label, method, c) => {
    const a = await exchange(p.url, c.send(method, ctx));
    expect(a.status).toBe(c.status);
    expect(a.headers['content-type']).toMatch(/^text\/plain/);
    if (method === 'HEAD') {
      expect(a.body).toBe('');
      return;
    }
    expect(a.body).toMatch(ONE_LINE);
    expect(a.body.slice(0, 4)).toBe(`${c.status} `);
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
    if (c.line) expect(a.body).toMatch(c.line);
  });
});
