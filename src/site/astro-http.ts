// Between node:http and Astro's app (adapter.ts): the visitor's request as the Web Request that Astro
// renders, and the Response it gives written back. What @astrojs/node's handler did, without what the
// site never uses: no AbortController and socket listeners per request (no page reads request.signal),
// no AsyncLocalStorage, no Headers built one append at a time.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Methods no Web Request can carry (the Fetch standard forbids them): answered 405 before Astro, as the
 * middleware answers every method but GET, HEAD and POST (route.ts).
 */
export const NOT_REQUESTS = new Set(['CONNECT', 'TRACE', 'TRACK']);
export const METHOD_NOT_ALLOWED = { status: 405, text: 'method not allowed', allow: 'GET, HEAD, POST' } as const;

/**
 * The request's URL as Astro sees it: `http:` (the middleware reads the real scheme itself, from a
 * trusted proxy's X-Forwarded-Proto) and the Host header. A Host no URL can hold gets Astro's own
 * fallback, `localhost`; the middleware answers it from the Host header anyway (route.ts).
 */
export function requestUrl(host: string | undefined, path: string): string {
  const url = `http://${host ?? 'localhost'}${path}`;
  if (URL.canParse(url)) return url;
  return host !== undefined && URL.canParse(`http://${host}`) ? `http://${host}/` : 'http://localhost/';
}

/**
 * A request's whole body, or undefined past `limit` bytes (a chunked body that grows past it: the
 * Content-Length was checked before). The site's forms are small; Astro reads a body whole anyway.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    // The visitor left before the body's end (or their connection failed): nothing will be answered,
    // and the caller finds the response gone.
    req.once('error', () => resolve(undefined));
    req.once('close', () => resolve(undefined));
  });
}

/**
 * The Web Request of a visitor's request as node:http parsed it (here, or in the front thread: ask.ts),
 * its body read whole before for a method that has one.
 */
export function webRequest(
  method: string,
  url: string,
  nodeHeaders: IncomingHttpHeaders,
  body: Uint8Array | undefined,
): Request {
  // A visitor's request headers are strings (Node joins repeated ones); only set-cookie is a list.
  const headers = nodeHeaders as Record<string, string>;
  const init: RequestInit = { method, headers };
  // (a Buffer is the Uint8Array the Fetch API takes; its type says ArrayBufferLike)
  if (body) init.body = body as Uint8Array<ArrayBuffer>;
  return new Request(requestUrl(headers.host, url), init);
}

/** A Response's headers as node:http writes them: each Set-Cookie its own header. */
export function outgoingHeaders(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== 'set-cookie') out[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/** Writes Astro's Response to the visitor: its status, headers and body. */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, outgoingHeaders(response));
  const body = response.body;
  if (!body) return void res.end();
  const reader = body.getReader();
  // The visitor gone before the end: the body's source is told (a stream that would go on).
  const gone = () => void reader.cancel().catch(() => {});
  res.once('close', gone);
  try {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      if (res.destroyed) return;
      if (!res.write(part.value)) await drained(res);
    }
    res.end();
  } catch {
    // The body failed half-way: the visitor must not take the part for the whole.
    res.destroy();
  } finally {
    res.off('close', gone);
  }
}

/** Until the visitor has read what was written (or left). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
