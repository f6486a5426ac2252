// The widgets' calls to the platform: RESTful style, a GET query or a form-urlencoded POST (a "simple"
// request: no CORS preflight), never credentials; `NNN message` error lines become PodiumApiError.

import type { PageRead } from '../../../src/shared/paging.ts';

export type Row = Record<string, unknown>;

/** A failed call: the HTTP status (0 = the platform could not be reached) and the platform's message. */
export class PodiumApiError extends Error {
  declare readonly status: number;
  /** Seconds to wait (the Retry-After of a 429), 0 when not given. */
  declare readonly retryAfter: number;
  constructor(status: number, message: string, retryAfter = 0) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** `https://api.example.com` or `…/podium/` → the base URL operations are resolved against. */
export const apiBase = (api: string): string => (api.endsWith('/') ? api : `${api}/`);

export type Params = Record<string, string | number | undefined>;

/** The parameters that have a value, as a query string or a form body. */
const form = (params: Params) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]));

/** Calls operation `name` (e.g. `form.get`) and answers its rows; throws PodiumApiError. */
export async function call(api: string, name: string, query: Params, body?: Params): Promise<Row[]> {
  return (await callPage(api, name, query, body)).rows;
}

/** One call's rows, and the total of the whole list when `paginated` asked for it (see paged.ts). */
export async function callPage(api: string, name: string, query: Params, body?: Params): Promise<PageRead<Row>> {
  let res: Response;
  try {
    res = await fetch(new URL(`${name.replaceAll('.', '/')}?${form(query)}`, new URL(apiBase(api), location.href)), {
      method: body ? 'POST' : 'GET',
      body: body && form(body),
      credentials: 'omit',
      // Asked again when the browser holds a copy (max-age=5): a live update must see the change; the
      // ETag makes an unchanged answer a 304.
      cache: 'no-cache',
    });
  } catch {
    throw new PodiumApiError(0, 'the platform cannot be reached');
  }
  const text = await res.text();
  if (res.ok) {
    const answer = JSON.parse(text);
    // `total` is a string ("0" too) when asked for, else absent.
    return { rows: answer.data, total: answer.total && +answer.total };
  }
  const m = /^\d{3} (.*)/s.exec(text);
  throw new PodiumApiError(res.status, m ? m[1] : text, +res.headers.get('retry-after')! || 0);
}
