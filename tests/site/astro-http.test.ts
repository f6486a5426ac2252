// Between node:http and Astro's app (src/site/astro-http.ts, the site's own adapter): the Request Astro
// renders and the Response written back, against a real node:http server on loopback that answers
// with Responses of each kind; and the same Responses sent to the front thread as messages (ask.ts).
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reply, type Answer } from '../../src/site/ask.ts';
import { readBody, requestUrl, sendResponse, webRequest } from '../../src/site/astro-http.ts';

describe('requestUrl', () => {
  it.each([
    ['summit.example.test', '/demo/summit?lang=pt', 'http://summit.example.test/demo/summit?lang=pt'],
    ['127.0.0.1:4321', '/', 'http://127.0.0.1:4321/'],
    ['[::1]:4321', '/x', 'http://[::1]:4321/x'],
    [undefined, '/x', 'http://localhost/x'],
    // A path that starts with // stays a path (never a host of its own).
    ['a.test', '//evil.test/x', 'http://a.test//evil.test/x'],
    // A Host no URL can hold: Astro's own fallback; the middleware answers from the Host header itself.
    ['bad host', '/x', 'http://localhost/'],
    ['a.test:99999', '/x', 'http://localhost/'],
  ])('%s %s → %s', (host, path, url) => {
    expect(requestUrl(host, path)).toBe(url);
    expect(new URL(requestUrl(host, path)).pathname.startsWith('/')).toBe(true);
  });
});

/** What the server's handler answers, set by each test; `seen` is the Request it made. */
let answer: (req: Request) => Response | Promise<Response>;
let seen: { request: Request; body: string | undefined } | undefined;
let server: Server;
let base: string;
const LIMIT = 64;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, LIMIT);
    if (req.method === 'POST' && body === undefined) {
      res.writeHead(413, { connection: 'close' });
      return void res.end('too large');
    }
    const web = webRequest(req.method!, req.url!, req.headers, body);
    seen = { request: web, body: body && (await web.clone().text()) };
    await sendResponse(res, await answer(web));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** A raw request: status, headers, body as received (or the error a cut answer gives). */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: string[] } = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string; error?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', (err) => resolve({ status: res.statusCode!, headers: res.headers, body, error: err.message }));
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

describe('the request Astro renders, the answer written back', () => {
  it("carries the method, URL, headers and a form's body", async () => {
    answer = () => new Response('ok');
    const res = await raw('/demo/summit/access?x=1', {
      method: 'POST',
      headers: { host: 'summit.example.test', 'content-type': 'application/x-www-form-urlencoded', cookie: 'a=1; b=2' },
      chunks: ['accessCode=', '1234'],
    });
    expect([res.status, res.body]).toEqual([200, 'ok']);
    expect(seen!.request.method).toBe('POST');
    expect(seen!.request.url).toBe('http://summit.example.test/demo/summit/access?x=1');
    expect(seen!.request.headers.get('cookie')).toBe('a=1; b=2');
    expect(seen!.body).toBe('accessCode=1234');
  });

  it('reads a chunked body up to the limit, and no further', async () => {
    answer = () => new Response('ok');
    const at = await raw('/f', { method: 'POST', chunks: ['x'.repeat(LIMIT / 2), 'x'.repeat(LIMIT / 2)] });
    expect([at.status, seen!.body?.length]).toEqual([200, LIMIT]);
    const past = await raw('/f', { method: 'POST', chunks: ['x'.repeat(LIMIT / 2), 'x'.repeat(LIMIT / 2 + 1)] });
    expect([past.status, past.body]).toEqual([413, 'too large']);
  });

  it('sends each Set-Cookie as its own header, and the status and other headers as given', async () => {
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', vary: 'Host, Cookie' });
    headers.append('set-cookie', 'a=1; Path=/; HttpOnly');
    headers.append('set-cookie', 'b=2; Path=/x');
    answer = () => {
      const r = new Response('<p>moved</p>', { status: 303, headers });
      r.headers.set('location', '/y');
      return r;
    };
    const res = await raw('/x');
    expect(res.status).toBe(303);
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/x']);
    expect([res.headers['content-type'], res.headers.vary, res.headers.location]).toEqual(['text/html; charset=utf-8', 'Host, Cookie', '/y']); // prettier-ignore
    expect(res.body).toBe('<p>moved</p>');
  });

  it('answers HEAD with the headers only, and a body-less answer with none', async () => {
    answer = () => new Response('<p>page</p>', { headers: { 'content-type': 'text/html' } });
    const head = await raw('/p', { method: 'HEAD' });
    expect([head.status, head.body, head.headers['content-type']]).toEqual([200, '', 'text/html']);
    answer = () => new Response(null, { status: 304, headers: { etag: '"e"' } });
    const none = await raw('/p');
    expect([none.status, none.body, none.headers.etag]).toEqual([304, '', '"e"']);
  });

  it('writes a streamed body as it comes, and cuts the answer short when the body fails half-way', async () => {
    answer = () =>
      new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(new TextEncoder().encode('part one, '));
            await new Promise((r) => setTimeout(r, 20));
            c.enqueue(new TextEncoder().encode('part two'));
            c.close();
          },
        }),
      );
    expect((await raw('/s')).body).toBe('part one, part two');
    answer = () =>
      new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(new TextEncoder().encode('the first half'));
            await new Promise((r) => setTimeout(r, 20));
            c.error(new Error('the page failed'));
          },
        }),
      );
    const cut = await raw('/s');
    // Not a whole answer: the visitor's client sees the connection end before the chunked body's end.
    expect(cut.error).toMatch(/aborted/);
    expect(cut.body).toBe('the first half');
  });

  it("tells a stream's source when the visitor leaves before its end", async () => {
    let cancelled: unknown;
    answer = () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('data: 1\n\n'));
          },
          cancel(reason) {
            cancelled = reason ?? 'cancelled';
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    await new Promise<void>((resolve) => {
      const req = request(`${base}/events`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.end();
    });
    await expect.poll(() => cancelled).toBeDefined();
  });
});

describe("a Response as the renderer's messages to the front (Reply)", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const decode = (m: Answer) => ('body' in m && m.body ? new TextDecoder().decode(m.body) : undefined);
  /** A body of these parts, the last `fails` or ends; `cancelled` says whether its source was told. */
  function parts(texts: string[], fails = false) {
    const state = { cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      async start(c) {
        for (const t of texts) {
          c.enqueue(encode(t));
          await new Promise((r) => setTimeout(r, 5));
        }
        if (fails) c.error(new Error('the page failed'));
        else c.close();
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { stream, state };
  }

  it('a page (one part) is one message: head, headers and the whole body', async () => {
    const sent: Answer[] = [];
    const headers = new Headers({ 'content-type': 'text/html' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    await new Reply(7, (m) => sent.push(m)).response(new Response('<p>page</p>', { status: 404, headers }), false);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'head', id: 7, status: 404, end: true });
    expect((sent[0] as { headers: object }).headers).toEqual({ 'content-type': 'text/html', 'set-cookie': ['a=1', 'b=2'] }); // prettier-ignore
    expect(decode(sent[0])).toBe('<p>page</p>');
  });

  it('HEAD and an empty body: the head alone', async () => {
    for (const [response, head] of [
      [new Response('<p>page</p>'), true],
      [new Response(null, { status: 304 }), false],
    ] as const) {
      const sent: Answer[] = [];
      await new Reply(1, (m) => sent.push(m)).response(response, head);
      expect(sent).toEqual([expect.objectContaining({ type: 'head', end: true, body: undefined })]);
    }
  });

  it('a body in parts: each part as it comes, the last one says so', async () => {
    const sent: Answer[] = [];
    await new Reply(2, (m) => sent.push(m)).response(new Response(parts(['one, ', 'two, ', 'three']).stream), false);
    expect(sent.map((m) => [m.type, decode(m), 'end' in m && m.end])).toEqual([
      ['head', 'one, ', false],
      ['body', 'two, ', false],
      ['body', 'three', true],
    ]);
  });

  it('a body that fails half-way: cut, never ended as if whole', async () => {
    const sent: Answer[] = [];
    await new Reply(3, (m) => sent.push(m)).response(new Response(parts(['one, ', 'two'], true).stream), false);
    // (a part is sent once the next one is read, to know whether it is the last: the failure comes first)
    expect(sent.map((m) => m.type)).toEqual(['head', 'cut']);
    expect(sent.some((m) => 'end' in m && m.end)).toBe(false);
  });

  it.each([
    ['its head', 1, ['head']],
    ['its first part', 2, ['head', 'body']],
  ])("the visitor gone after %s: the body's source is told, and nothing more is sent", async (_, after, types) => {
    const sent: Answer[] = [];
    const reply = new Reply(4, (m) => {
      sent.push(m);
      if (sent.length === after) reply.gone();
    });
    const { stream, state } = parts(['one, ', 'two, ', 'three, ', 'four']);
    await reply.response(new Response(stream), false);
    expect(state.cancelled).toBe(true);
    expect(sent.map((m) => m.type)).toEqual(types);
  });
});
