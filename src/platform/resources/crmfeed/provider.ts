import { z } from 'zod';

// The CRM provider (issue 17, docs/api/crmfeed.md "The provider's JSON"): one interface, one HTTP
// provider. The operator configures it (CRM_URL, CRM_TOKEN); an event brings only its token. Every request
// goes to CRM_URL's origin with a fixed path, never follows a redirect (a provider cannot bounce the
// platform to another host), waits at most CRM_TIMEOUT_MS, reads at most CRM_MAX_BYTES and parses the
// answer with zod. Every failure is a CrmError whose message names the provider: operations answer it
// as a `502` line, the sync job keeps it as its error.

/** A community the token sees. */
export interface CrmCommunity {
  readonly id: string;
  readonly name: string;
  readonly url: string;
}
/** A group the token sees. */
export interface CrmGroup {
  readonly id: string;
  readonly name: string;
}
/** One person as the sync pushes them: what they gave to the event (its profile and registration). */
export type CrmPerson = Readonly<Record<string, string>>;

export interface CrmPush {
  readonly communityId: string;
  readonly groupId: string;
  readonly event: { readonly eventID: string; readonly name: string };
  readonly people: readonly CrmPerson[];
}

export interface CrmProvider {
  /** How errors name it. */
  readonly name: string;
  communities(token: string): Promise<CrmCommunity[]>;
  /** The groups of `communityId` ('' for every group the token sees). */
  groups(token: string, communityId: string): Promise<CrmGroup[]>;
  /** Pushes one batch; the provider upserts by `externalId` and drops a repeated `idempotencyKey`. */
  push(token: string, batch: CrmPush, idempotencyKey: string): Promise<void>;
}

/** A provider failure: `refused` when it turned the request down for good (a 4xx but 408/429). */
export class CrmError extends Error {
  readonly refused: boolean;
  constructor(message: string, refused = false) {
    super(message);
    this.name = 'CrmError';
    this.refused = refused;
  }
}

const line = z.string().max(2000);
const idOf = z.union([z.string().min(1).max(200), z.number().int().transform(String)]);
const MAX_ITEMS = 5000;
const communitiesAnswer = z.object({
  communities: z.array(z.object({ id: idOf, name: line.default(''), url: line.default('') })).max(MAX_ITEMS),
});
const groupsAnswer = z.object({
  groups: z.array(z.object({ id: idOf, name: line.default('') })).max(MAX_ITEMS),
});

export interface HttpCrmOptions {
  readonly url: string;
  readonly platformToken?: string;
  readonly name?: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** The body of `res`, at most `max` bytes (undefined when it is longer: reading stops there). */
async function capped(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The HTTP provider of docs/api/crmfeed.md: `GET /communities`, `GET /groups`, `POST /people`. */
export function httpCrm(o: HttpCrmOptions): CrmProvider {
  const base = o.url.replace(/\/+$/, '');
  const name = o.name ?? new URL(base).host;
  const who = `CRM provider ${name}`;

  async function request(token: string, path: string, init: { method: string; body?: string; key?: string }) {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: init.method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          ...(o.platformToken ? { 'x-platform-token': o.platformToken } : {}),
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.key ? { 'idempotency-key': init.key } : {}),
        },
        body: init.body,
        redirect: 'manual', // never followed: a 3xx is answered as an error below
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new CrmError(timedOut ? `${who} did not answer within ${o.timeoutMs} ms` : `${who} cannot be reached`);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw new CrmError(`${who} answered a redirect, which is not followed`);
    }
    let text: string | undefined;
    try {
      text = await capped(res, o.maxBytes);
    } catch {
      throw new CrmError(`${who} did not finish its answer within ${o.timeoutMs} ms`);
    }
    if (!res.ok) {
      const refused = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
      const why = res.status === 401 || res.status === 403 ? " (it refused the event's token)" : '';
      throw new CrmError(`${who} answered HTTP ${res.status}${why}`, refused);
    }
    if (text === undefined) throw new CrmError(`${who} answered more than ${o.maxBytes} bytes`);
    return text;
  }

  function parse<T>(text: string, schema: z.ZodType<T>): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CrmError(`${who} answered something that is not JSON`);
    }
    const result = schema.safeParse(json);
    if (!result.success) throw new CrmError(`${who} answered JSON of an unexpected shape`);
    return result.data;
  }

  return {
    name,
    async communities(token) {
      return parse(await request(token, '/communities', { method: 'GET' }), communitiesAnswer).communities;
    },
    async groups(token, communityId) {
      const query = communityId ? `?${new URLSearchParams({ communityId })}` : '';
      return parse(await request(token, `/groups${query}`, { method: 'GET' }), groupsAnswer).groups;
    },
    async push(token, batch, idempotencyKey) {
      await request(token, '/people', { method: 'POST', body: JSON.stringify(batch), key: idempotencyKey });
    },
  };
}

/** The provider the configuration names; undefined without CRM_URL. */
export function crmProviderOf(config: {
  CRM_URL?: string;
  CRM_TOKEN?: string;
  CRM_NAME?: string;
  CRM_TIMEOUT_MS: number;
  CRM_MAX_BYTES: number;
}): CrmProvider | undefined {
  if (!config.CRM_URL) return undefined;
  return httpCrm({
    url: config.CRM_URL,
    platformToken: config.CRM_TOKEN,
    name: config.CRM_NAME,
    timeoutMs: config.CRM_TIMEOUT_MS,
    maxBytes: config.CRM_MAX_BYTES,
  });
}
