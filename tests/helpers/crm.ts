import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake CRM provider on loopback for the tests (docs/api/crmfeed.md "The provider's JSON"): it answers
// GET /communities, GET /groups and POST /people for the tokens it knows, keeps the people it was
// pushed (upserted by externalId, a repeated Idempotency-Key dropped), logs every request, and
// misbehaves on demand: an HTTP status, garbage, JSON of another shape, an answer too large, a
// redirect, a dropped connection, or an answer later than the platform waits.

/** 'lost': the batch is kept, then answered 500, as when the acknowledgement never reaches the platform. */
export type Misbehaviour = number | 'garbage' | 'shape' | 'huge' | 'slow' | 'redirect' | 'reset' | 'lost';

export interface CrmRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export interface FakeCrm {
  readonly url: string;
  readonly requests: CrmRequest[];
  /** Tokens it accepts (Authorization: Bearer …); any other is 401. */
  tokens: Set<string>;
  communities: { id: string; name: string; url: string }[];
  /** Groups by community id ('' for the groups asked without a community). */
  groups: Record<string, { id: string; name: string }[]>;
  /** Answers, in order, taken by the next requests (of any path) before they are served. */
  script: Misbehaviour[];
  /** The same, for POST /people only. */
  pushScript: Misbehaviour[];
  /** People pushed, by externalId: the last push of each, with the batch's community, group and token. */
  readonly people: Map<string, Record<string, string> & { communityId: string; groupId: string; token: string }>;
  /** Batches accepted, and those dropped as repeats of an Idempotency-Key. */
  readonly batches: { key: string; size: number }[];
  repeats: number;
  /** Waits until `count` people were pushed. */
  until(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeCrm(): Promise<FakeCrm> {
  const state = {
    tokens: new Set<string>(),
    communities: [] as FakeCrm['communities'],
    groups: {} as FakeCrm['groups'],
    script: [] as Misbehaviour[],
    pushScript: [] as Misbehaviour[],
  };
  const requests: CrmRequest[] = [];
  const people: FakeCrm['people'] = new Map();
  const batches: FakeCrm['batches'] = [];
  const seenKeys = new Set<string>();
  let repeats = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://crm.test');
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        /* kept as text */
      }
      requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body }); // prettier-ignore
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const misbehave = (m: Misbehaviour) => {
        if (typeof m === 'number') return json(m, { error: 'scripted' });
        if (m === 'garbage') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('<html>not json</html>');
        }
        if (m === 'shape') return json(200, { items: 'nope' });
        if (m === 'huge') return json(200, { communities: [{ id: 'x', name: 'x'.repeat(3_000_000) }] });
        if (m === 'reset') return req.socket.destroy(); // as a provider that is down
        if (m === 'redirect') {
          // To a loopback port nothing listens on: a platform that followed it would still stay on this machine.
          res.writeHead(302, { location: 'http://127.0.0.1:9/latest/meta-data/' });
          return res.end();
        }
        // 'slow': later than the platform waits (the test sets CRM_TIMEOUT_MS low).
        setTimeout(() => json(200, { communities: [], groups: [] }), 3000);
      };
      const scripted = state.script.shift() ?? (url.pathname === '/people' ? state.pushScript.shift() : undefined);
      const lost = scripted === 'lost';
      if (scripted !== undefined && !lost) return misbehave(scripted);
      const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
      if (!state.tokens.has(token)) return json(401, { error: 'unknown token' });
      if (req.method === 'GET' && url.pathname === '/communities') return json(200, { communities: state.communities }); // prettier-ignore
      if (req.method === 'GET' && url.pathname === '/groups')
        return json(200, { groups: state.groups[url.searchParams.get('communityId') ?? ''] ?? [] });
      if (req.method === 'POST' && url.pathname === '/people') {
        const key = headers['idempotency-key'] ?? '';
        const b = body as { communityId: string; groupId: string; people: Record<string, string>[] };
        if (seenKeys.has(key)) {
          repeats++;
          return json(200, { accepted: 0, repeat: true });
        }
        seenKeys.add(key);
        for (const p of b.people) people.set(p.externalId, { ...p, communityId: b.communityId, groupId: b.groupId, token }); // prettier-ignore
        batches.push({ key, size: b.people.length });
        return json(lost ? 500 : 200, { accepted: b.people.length });
      }
      json(404, { error: 'no such path' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    people,
    batches,
    get repeats() {
      return repeats;
    },
    set repeats(v) {
      repeats = v;
    },
    get tokens() {
      return state.tokens;
    },
    set tokens(v) {
      state.tokens = v;
    },
    get communities() {
      return state.communities;
    },
    set communities(v) {
      state.communities = v;
    },
    get groups() {
      return state.groups;
    },
    set groups(v) {
      state.groups = v;
    },
    get script() {
      return state.script;
    },
    set script(v) {
      state.script = v;
    },
    get pushScript() {
      return state.pushScript;
    },
    set pushScript(v) {
      state.pushScript = v;
    },
    async until(count, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (people.size < count) {
        if (Date.now() > end) throw new Error(`${people.size} people pushed after ${timeoutMs} ms, not ${count}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
