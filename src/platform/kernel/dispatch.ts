import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Config } from '../config.ts';
import type { Counter, Hit } from '../limits/counter.ts';
import {
  OWNERS,
  isReportOperation,
  rowsOf,
  type AnyOperation,
  type Context,
  type Method,
  type OwnerParam,
  type Param,
  type ReportPage,
  type Result,
  type Row,
  type RowsOperation,
} from './table.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { resolveCaller, type Caller } from '../auth/caller.ts';
import { eventAccess, requireCompany, requireEvent } from '../auth/access.ts';
import { hashToken } from '../auth/secrets.ts';
import { encodedBody, envelope } from './wire.ts';
import { toXlsx, XLSX_CONTENT_TYPE } from '../excel.ts';
import { AnswerCache, type CachedAnswer, type Scope } from './cache.ts';
import { takes } from './encoding.ts';
import { isEditOperation } from '../edit.ts';
import { valuesOf } from '../schemas.ts';
import { unknownParameter } from './unknown.ts';
import { recordChange, touchesPublic, type ChangeRow } from '../resources/change/log.ts';
import { changeOf, changesOf } from './changes.ts';
import { watchProgram } from '../resources/program/watch.ts';
import { indexChange } from '../resources/search/maintain.ts';
import type { StreamHub, StreamSink, StreamView } from '../stream/hub.ts';
import { queueReport } from '../resources/download/operations/queue.ts';

/** A call as both styles deliver it: the operation name, the method, the two parameter places. */
export interface Call {
  readonly name: string | undefined;
  readonly method: string;
  /** The query string as received, the key of cached public answers. */
  readonly rawQuery: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly authorization: string | undefined;
  readonly clientIp: string;
  /** The request's Accept-Encoding and If-None-Match headers: compressed and 304 answers of the cache. */
  readonly acceptEncoding?: string;
  readonly ifNoneMatch?: string;
  /** `Cache-Control: no-cache` on the request: the answer is computed anew, not taken from the cache. */
  readonly noCache?: boolean;
  /** The `Last-Event-ID` header of a stream operation's call (an EventSource reconnecting). */
  readonly lastEventID?: string;
  /**
   * In-process calls only, never set from a request: the call runs as this person (system scope),
   * without a token, limits or the answer cache. Webhook payloads read their object this way, with
   * the rights of the person who registered the webhook (src/platform/webhooks/payload.ts).
   */
  readonly as?: Caller;
}

export interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: string | Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  /** A stream operation's answer: after the head, the hub writes its messages to `sink` until closed. */
  readonly stream?: (sink: StreamSink) => () => void;
}

export interface Deps {
  readonly db: Kysely<DB>;
  readonly config: Config;
  readonly counter: Counter;
  /** Where writes add their jobs (ctx.jobs). */
  readonly jobs: Context['jobs'];
  readonly operations: readonly AnyOperation[];
  /** Where stream operations' answers are held open (src/platform/stream/hub.ts). */
  readonly streams: StreamHub;
  readonly log: {
    error(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const STREAM_TYPE = 'text/event-stream; charset=utf-8';
/**
 * A stream's head: never stored by a cache, never buffered by a proxy (nginx reads X-Accel-Buffering),
 * and its connection closed with it (a stream's end is a reason to reconnect, not to reuse the socket).
 */
const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
  connection: 'close',
};
/** The dispatcher's own parameters, read from the query only. */
const GLOBALS = ['action', 'format', 'sandbox'] as const;
/** The names every operation takes besides its own parameters. */
const SHARED: readonly string[] = [...GLOBALS, 'tokenID'];

/** A further change a write's handler told of (Context.alsoChanged): the write operation and its params. */
interface Further {
  readonly name: string;
  readonly params: Record<string, unknown>;
}

/** A write the store committed (never a sandbox call): the operation, its parameters and its rows. */
export interface Committed {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly result: Result;
  /** What it changed, as the change log has it. */
  readonly change: ChangeRow;
}

/**
 * Operations marked `cors` (the widgets' public calls) are readable from any origin, never with
 * credentials (no Allow-Credentials: the widgets send no cookies); a 429's Retry-After is readable.
 */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
};
const corsPreflight = (op: AnyOperation): Record<string, string> => ({
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': op.methods.join(', '),
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
});
const TEXT_TYPE = 'text/plain; charset=utf-8';
const withCors = (a: Answer): Answer => ({ ...a, headers: { ...a.headers, ...CORS_HEADERS } });

/**
 * What the path of a call needs of an operation that does not change from call to call, computed
 * once when the dispatcher is made instead of on every call: its parameters as a list, the
 * parameters some variant names, whether it is an edit, its key prefix in the cache, its preflight.
 */
interface Plan {
  readonly op: AnyOperation;
  readonly params: readonly (readonly [string, Param])[];
  readonly inVariant: ReadonlySet<string>;
  /** Every name a call may send: the operation's parameters, the dispatcher's own, tokenID. */
  readonly known: ReadonlySet<string>;
  readonly edit: boolean;
  readonly cachePrefix: string;
  readonly preflight: Answer | undefined;
}

/** Whether the operation takes a parameter of this name: its own, a shared one, or one of its pattern. */
const takesName = (plan: Plan, name: string): boolean =>
  plan.known.has(name) || plan.op.patternParams?.pattern.test(name) === true;

function planOf(op: AnyOperation): Plan {
  return {
    op,
    params: Object.entries(op.params as Record<string, Param>),
    inVariant: new Set(op.variants?.flat() ?? []),
    known: new Set([...Object.keys(op.params), ...SHARED]),
    edit: isEditOperation(op),
    cachePrefix: `${op.name}?`,
    preflight: op.cors ? { status: 204, type: TEXT_TYPE, body: '', headers: corsPreflight(op) } : undefined,
  };
}

class SandboxRollback extends Error {
  readonly result: Result;
  constructor(result: Result) {
    super('sandbox rollback');
    this.result = result;
  }
}

/**
 * What never goes into an error line: C0/C1 controls (CR LF would split it into several lines),
 * the Unicode line and paragraph separators, and the bidirectional controls that reorder what a
 * terminal or log viewer shows. Messages echo what callers sent (a selection, an operation name).
 */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** The spec's error answer: one `text/plain` line `NNN message`, whatever the message held. */
export const errorAnswer = (status: number, message: string, headers?: Record<string, string>): Answer => ({
  status,
  type: TEXT_TYPE,
  body: `${status} ${message.replace(UNPRINTABLE, '').trim() || 'error'}`,
  headers,
});

/** Turns what the store throws on a constraint into a client answer; anything else stays a 500. */
function constraintError(err: unknown): ApiError | undefined {
  const e = err as { code?: string; errcode?: number; message?: string };
  if (e.code === '23505' || e.errcode === 2067 || e.errcode === 1555)
    return new ApiError(409, 'conflicts with an existing object');
  if (e.code === '23503' || e.errcode === 787) return new ApiError(409, 'refers to an object that does not exist');
  return undefined;
}

/**
 * How shared caches (a CDN, a browser) may keep a public answer: a few seconds fresh, then served stale
 * while they ask again; the ETag makes that question cheap (a 304).
 */
const PUBLIC_CACHE = 'public, max-age=5, stale-while-revalidate=30';

/** A cached answer as this caller takes it: 304 for the tag it holds, else br, gzip or plain bytes. */
function cachedAnswer(a: CachedAnswer, call: Call): Answer {
  const headers = { etag: a.etag, 'cache-control': PUBLIC_CACHE, vary: 'Accept-Encoding' };
  const taken = takes(a.etag, true, call.ifNoneMatch, call.acceptEncoding);
  if (taken === 304) return { status: 304, type: JSON_TYPE, body: EMPTY, headers };
  const encoded = taken === 'br' ? a.br : taken === 'gzip' ? a.gzip : undefined;
  if (encoded === undefined) return { status: 200, type: JSON_TYPE, body: a.body, headers };
  return { status: 200, type: JSON_TYPE, body: encoded, headers: { ...headers, 'content-encoding': taken! } };
}
const EMPTY = new Uint8Array(0);

/**
 * The answer as the caller is shown it (Operation.shown): applied after write() has recorded the change
 * from the handler's own rows, so what is blanked here is still in the change log, webhooks and push.
 */
async function shownOf(
  shown: NonNullable<RowsOperation['shown']>,
  ctx: Context,
  params: Record<string, unknown>,
  result: Result,
): Promise<Result> {
  const rows = await shown(ctx, params, rowsOf(result));
  return Array.isArray(result) ? rows : { rows, total: result.total };
}

/**
 * What a public answer depends on: the event its call names, else the company, else the one event (or
 * company) all its rows belong to (activity.get names an activity), else anything.
 */
function scopeOf(params: Record<string, unknown>, rows: readonly Record<string, unknown>[]): Scope {
  if (typeof params.eventID === 'number') return { eventID: params.eventID };
  if (typeof params.companyID === 'number') return { companyID: params.companyID };
  const one = (key: string) => {
    const first = rows[0]?.[key];
    return typeof first === 'number' && rows.every((r) => r[key] === first) ? first : undefined;
  };
  const eventID = one('eventID');
  if (eventID !== undefined) return { eventID };
  const companyID = one('companyID');
  return companyID !== undefined ? { companyID } : {};
}

/**
 * The one path every call takes (design.md "the path of one call"): rate limits, the operation
 * from the table, method, parameters from their declared places, token, the handler (inside a
 * transaction for writes, rolled back for sandbox=1), and the envelope or error line.
 */
export function createDispatcher(deps: Deps) {
  const { db, config, counter, log } = deps;
  const table = new Map(deps.operations.map((op) => [op.name, op]));
  const plans = new Map(deps.operations.map((op) => [op.name, planOf(op)]));
  const cache = new AnswerCache(5000, 10_000);
  /** Cacheable reads being computed, by cache key: a second caller waits for the first instead of computing too. */
  const reading = new Map<string, Promise<void>>();
  const committedListeners = new Set<(c: Committed) => void>();

  function checkLimit(hit: Hit, perSecond: number, who: string): void {
    if (hit.count > perSecond) {
      throw new ApiError(429, `too many calls ${who}, at most ${perSecond} per second`, {
        'Retry-After': String(Math.max(1, Math.ceil(hit.resetMs / 1000))),
      });
    }
  }

  /** When the log last said the rate-limit store is unavailable (ms). */
  let limitWarnedAt = 0;
  /**
   * Counts a call against `key`; a 429 past `perSecond`. An in-process counter answers at once
   * (nothing to wait for: no promise per call); Redis answers a promise.
   */
  function limit(key: string, perSecond: number, who: string): Promise<void> | undefined {
    if (counter.hitNow) {
      checkLimit(counter.hitNow(key, 1000), perSecond, who);
      return undefined;
    }
    let pending: Promise<Hit>;
    try {
      pending = counter.hit(key, 1000);
    } catch (err) {
      pending = Promise.reject(err);
    }
    return pending.then(
      (hit) => checkLimit(hit, perSecond, who),
      (err: unknown) => {
        // Rate-limit store down: serve rather than fail every call; the log says so, in one plain
        // line at most every 10 s (not a stack per call).
        const now = Date.now();
        if (now - limitWarnedAt < 10_000) return;
        limitWarnedAt = now;
        log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'rate limit store unavailable: calls are not limited'); // prettier-ignore
      },
    );
  }

  function readToken(call: Call): string | undefined {
    // Read from the query only (spec §5.1): one in the body would be ignored — the call run as
    // anonymous, answering something misleading ("cannot be empty", or public data), or as the query's
    // or the header's token when the caller meant this one.
    if (call.body?.tokenID !== undefined) throw badRequest('tokenID belongs in the query string');
    const q = call.query.tokenID;
    if (typeof q === 'string' && q !== '') return q;
    if (Array.isArray(q)) throw badRequest('tokenID must be given once');
    const h = call.authorization?.trim();
    if (!h) return undefined;
    if (/^Bearer\s/i.test(h)) return h.slice(7).trim() || undefined;
    // A bare token (no scheme) is a caller's slip: answered as anonymous, it would see only public
    // data without knowing why. Another scheme (a proxy's Basic) is not ours, and is left alone.
    if (!/\s/.test(h) || /^Bearer$/i.test(h)) throw new ApiError(401, 'Authorization must be "Bearer <token>"');
    return undefined;
  }

  /**
   * The dispatcher's own parameters are read from the query only. One sent in the body would be
   * ignored without a word: `sandbox=1` there would commit the write it was meant to try. The same
   * value in both places is no mistake; a body's value the query lacks or contradicts is refused.
   * In the RESTful style the path names the operation: an `action` naming another would be ignored.
   */
  function refuseMisplacedGlobals(call: Call): void {
    const { query, body, name: operation } = call;
    const fromPath = operation !== undefined && query.action !== operation;
    for (const named of fromPath ? [query.action, body?.action] : []) {
      if (Array.isArray(named)) throw badRequest('action must be given once');
      if (named !== undefined && named !== operation)
        throw badRequest(`action ${String(named).slice(0, 80)} is not the operation the path names, ${operation}`);
    }
    if (body === undefined) return;
    for (const name of GLOBALS) {
      if (name === 'action' && fromPath) continue; // checked above
      if (body[name] !== undefined && body[name] !== query[name])
        throw badRequest(`${name} belongs in the query string`);
    }
  }

  /** An edit's refusal names its key, as parseEdit's do: in a script of many edits, which one failed. */
  const ofKey = (call: Call) => (call.query.key === undefined ? '' : ` (key ${String(call.query.key).slice(0, 60)})`);

  function readParams(plan: Plan, call: Call): Record<string, unknown> {
    const { op, inVariant, edit } = plan;
    const values: Record<string, unknown> = {};
    // Placement first (spec §1.1 rule 4): a parameter sent only in the other place is named with where
    // it belongs, before any other parameter is found missing.
    for (const [name, p] of plan.params) {
      const here = p.place === 'query' ? call.query : call.body;
      const there = p.place === 'query' ? call.body : call.query;
      if (here?.[name] === undefined && there?.[name] !== undefined)
        throw badRequest(`${name} belongs in the ${p.place === 'query' ? 'query string' : 'request body'}`);
    }
    refuseUnknown(plan, call);
    for (const [name, p] of plan.params) {
      const raw = p.place === 'query' ? call.query[name] : call.body?.[name];
      // An edit without a value at all is a mistake, not a request to clear the field: only an explicit
      // empty `value=` clears (parseEdit), so a lost or forgotten body never empties a field. (An edit
      // whose key is optional has another form without key and value: event.guest.operate B content.)
      if (raw === undefined && edit && name === 'value' && call.query.key !== undefined)
        throw badRequest(`value cannot be empty${ofKey(call)}`);
      if (Array.isArray(raw)) throw badRequest(`${name} must be given once`);
      // PostgreSQL text cannot hold NUL (SQLite would store it): refused once here, for every parameter.
      if (typeof raw === 'string' && raw.includes('\0')) throw badRequest(`${name} cannot contain a NUL character`);
      if (raw === undefined || raw === '') {
        if (!p.optional && !inVariant.has(name)) {
          const values = valuesOf(p.schema);
          throw badRequest(
            `${name} cannot be empty${name === 'value' ? ofKey(call) : values ? ` (values: ${values})` : ''}`,
          );
        }
        continue;
      }
      const parsed = p.schema.safeParse(raw);
      if (!parsed.success) throw badRequest(`${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
      values[name] = parsed.data;
    }
    if (op.variants && !op.variants.some((set: readonly string[]) => set.every((n) => Object.hasOwn(values, n)))) {
      const forms = op.variants.map((set: readonly string[]) => set.join(' + '));
      throw badRequest(`one of these is required: ${forms.join('; ')}`);
    }
    return values;
  }

  /**
   * A name the operation does not take is refused, not ignored: a misspelt `nicknme` would otherwise
   * be answered as if it had not been sent (an unfiltered list, a default) with nothing to say why.
   */
  function refuseUnknown(plan: Plan, call: Call): void {
    for (const source of [call.query, call.body ?? {}])
      for (const name of Object.keys(source)) {
        if (takesName(plan, name)) continue;
        const { op } = plan;
        throw badRequest(unknownParameter(name, op.name, Object.keys(op.params), SHARED, op.patternParams?.example));
      }
  }

  function readPatternParams(op: AnyOperation, call: Call): Record<string, unknown> {
    const extra: Record<string, unknown> = {};
    if (!op.patternParams) return extra;
    const { pattern, param } = op.patternParams;
    const source = (param.place === 'query' ? call.query : call.body) ?? {};
    for (const name of Object.keys(source)) {
      if (!pattern.test(name)) continue;
      const raw = source[name];
      if (Array.isArray(raw)) throw badRequest(`${name} must be given once`);
      if (raw === '' || raw === undefined) continue;
      if (typeof raw === 'string' && raw.includes('\0')) throw badRequest(`${name} cannot contain a NUL character`);
      const parsed = param.schema.safeParse(raw);
      if (!parsed.success) throw badRequest(`${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
      extra[name] = parsed.data;
    }
    return extra;
  }

  /** A call without a token: only public operations take it. */
  function anonymous(op: AnyOperation): undefined {
    if (op.auth.kind !== 'public') throw new ApiError(401, 'tokenID cannot be empty');
    return undefined;
  }

  async function authenticate(op: AnyOperation, token: string, now: number): Promise<Caller | undefined> {
    const caller = await resolveCaller(db, token, now);
    if (!caller) {
      // Ignored only where a client holding a stale token must get a new one (signIn, recover,
      // confirm, registration); elsewhere, public reads included, it is told its token is stale
      // instead of being answered as anonymous.
      if (op.staleTokenIgnored && op.auth.kind === 'public') return undefined;
      throw new ApiError(401, 'tokenID is not valid or has expired');
    }
    if (op.auth.kind === 'operator' && !caller.operator)
      throw new ApiError(403, 'platform operator access required (operators are made with npx podium admin create)');
    return caller;
  }

  /**
   * The event an `event` rule is about: named by eventID, or found through the object a call names.
   * `object` is the noun of that object's 404: a caller with no relation to its event is answered
   * exactly as for an id that does not exist (`404 activity not found`, not `404 event not found`),
   * so another tenant's ids cannot be told from unknown ones.
   */
  async function eventOf(
    via: readonly OwnerParam[],
    params: Record<string, unknown>,
  ): Promise<{ eventID: number; object: string }> {
    const name = via.find((n) => params[n] !== undefined);
    if (name === undefined) throw badRequest(`${via.join(' or ')} cannot be empty`);
    const value = params[name] as number;
    if (name === 'eventID') return { eventID: value, object: 'event' };
    const table = OWNERS[name];
    const object = table === 'hotsite' ? 'section' : table;
    const row = await db
      .selectFrom(table)
      .select('eventID')
      .where(name as never, '=', value as never)
      .executeTakeFirst();
    if (!row || row.eventID === null) throw notFound(object);
    return { eventID: row.eventID, object };
  }

  /** Company and event rules name their target by the companyID / eventID parameter (or an object's id). */
  async function authorize(op: AnyOperation, ctx: Context, params: Record<string, unknown>): Promise<Context> {
    if (op.auth.kind === 'company') {
      const companyID = params.companyID as number;
      return { ...ctx, access: { companyID, level: await requireCompany(ctx, companyID, op.auth.role) } };
    }
    if (op.auth.kind === 'event') {
      const target = await eventOf(op.auth.via ?? ['eventID'], params);
      const own = ctx.caller?.scope === 'event' && ctx.caller.targetID === target.eventID;
      const former = op.auth.formerMember && own ? await eventAccess(db, ctx.caller, target.eventID) : undefined;
      if (former && !former.related)
        return { ...ctx, access: { companyID: former.companyID, eventID: former.eventID, level: 0 } };
      const a = await requireEvent(ctx, target.eventID, op.auth.levels, target.object);
      return { ...ctx, access: { companyID: a.companyID, eventID: a.eventID, level: a.level } };
    }
    return ctx;
  }

  /**
   * The write of a format=excel-daemon call: the report queued (resources/download/report.ts), recorded
   * as a change of kind `download` (download.create) like any write.
   */
  function reportQueue(op: AnyOperation, query: Call['query']): AnyOperation {
    return {
      name: 'download.create',
      summary: '',
      methods: ['GET'],
      params: {},
      auth: op.auth,
      writes: true,
      handler: (ctx: Context, params: Record<string, unknown>) => queueReport(ctx, op, params, query),
    };
  }

  /** The context of a call a job makes for the person who asked (a report's page, a daemon's item). */
  function jobContext(op: AnyOperation, call: Call & { as: Caller }): Context {
    return {
      db,
      caller: call.as,
      access: undefined,
      now: Math.floor(Date.now() / 1000),
      clientIp: call.clientIp,
      sandbox: false,
      prepared: {},
      extra: readPatternParams(op, call),
      config,
      counter,
      jobs: deps.jobs,
    };
  }

  /**
   * One page of a list, for a report job (src/platform/reports): the call `call` (run `as` its person)
   * validated and authorized as dispatch would, then the handler with `limit` rows from `offset` — more
   * than a caller's page may hold (ctx.report). Rows as the handler made them (format=excel's too), and
   * where the page ended when the list reads by key (`next`: the next page's `after`, see ReportPage).
   */
  async function reportRows(
    call: Call & { as: Caller },
    limit: number,
    offset: number,
    after?: unknown,
  ): Promise<{ rows: Row[]; next: unknown }> {
    const plan = call.name === undefined ? undefined : plans.get(call.name);
    if (!plan || !isReportOperation(plan.op)) throw new ApiError(404, `operation ${call.name} does not exist`);
    const { op } = plan;
    // A report's query was kept when it was queued. One queued before unknown names were refused may
    // hold a name that was ignored then: it is dropped, as it was, not refused to the reader now.
    const query = Object.fromEntries(Object.entries(call.query).filter(([k]) => takesName(plan, k)));
    const params = readParams(plan, { ...call, query });
    const page: ReportPage = { after };
    let ctx: Context = { ...jobContext(op, call), report: page };
    ctx = await authorize(op, ctx, params);
    const result = await op.handler!(ctx, { ...params, limit, offset, paginated: undefined });
    return { rows: rowsOf(result), next: page.next };
  }

  /**
   * One item of a bulk daemon (src/platform/daemons/run.ts): the write `call` (run `as` its person)
   * validated and authorized exactly as dispatch would, its handler, its change — and `within`, in the
   * same transaction (the daemon's progress; it throws to roll the item back). The object the call names
   * must be of `eventID`: one of another event is refused as an unknown id of its kind would be.
   */
  async function runItem(
    call: Call & { as: Caller },
    eventID: number,
    within: (trx: Kysely<DB>) => Promise<void>,
  ): Promise<Result> {
    const plan = call.name === undefined ? undefined : plans.get(call.name);
    if (!plan || !plan.op.writes || plan.op.stream) throw new ApiError(404, `operation ${call.name} does not exist`);
    const { op } = plan;
    const params = readParams(plan, call);
    let ctx = jobContext(op, call);
    if (op.auth.kind === 'event') {
      const target = await eventOf(op.auth.via ?? ['eventID'], params);
      if (target.eventID !== eventID) throw notFound(target.object);
    }
    ctx = await authorize(op, ctx, params);
    if (op.prepare) ctx = { ...ctx, prepared: await op.prepare(params) };
    return write(op, ctx, params, within);
  }

  /** ctx.alsoChanged of one write (bound to its list): a further change, checked to be a write's. */
  function tellFurther(further: Further[], name: string, params: Readonly<Record<string, unknown>>): void {
    if (!plans.get(name)?.op.writes) throw new Error(`alsoChanged: ${name} is not a write operation`);
    further.push({ name, params: { ...params } });
  }

  /**
   * A write: in a transaction, rolled back for sandbox=1, which also records its change in the change
   * log (so a change is logged if and only if its write committed); a commit clears the cache and is told.
   */
  async function write(
    op: AnyOperation,
    ctx: Context,
    params: Record<string, unknown>,
    /** More of the same transaction, after the handler (a bulk daemon's progress: runItem). */
    within?: (trx: Kysely<DB>) => Promise<void>,
  ): Promise<Result> {
    try {
      // The call's own change first, then the further ones its handler told of (ctx.alsoChanged).
      const further: Further[] = [];
      const alsoChanged = tellFurther.bind(null, further);
      const { result, changes } = await db.transaction().execute(async (trx) => {
        // A write that can change the event's program records what it changed (the program changelog).
        const program = await watchProgram(trx, op.name, ctx.access?.eventID);
        const out = await op.handler!({ ...ctx, db: trx, alsoChanged }, params);
        if (ctx.sandbox) throw new SandboxRollback(out);
        await within?.(trx);
        await program?.(ctx.now, ctx.jobs);
        // The call's changes (one, or a bulk form's one per row: changesOf), then the further ones.
        const own = changesOf(op, ctx, params, out);
        const more = further.map((f) => ({
          ...f,
          result: [] as Result,
          change: changeOf(plans.get(f.name)!.op, ctx, f.params, []),
        }));
        // The search index follows every write of what it holds, in the write's transaction
        // (search/maintain.ts): the call's rows at once (all of a bulk form's), each further change alone.
        await indexChange(trx, own[0].change, rowsOf(out));
        for (const t of more) await indexChange(trx, t.change, []);
        const recorded: Committed[] = [];
        for (const t of [...own.map((c) => ({ name: op.name, params, ...c })), ...more])
          recorded.push({ ...t, change: await recordChange(trx, t.change) });
        return { result: out, changes: recorded };
      });
      for (const committed of changes) {
        const change = committed.change;
        // The answers of its event (or company) are born again — here, not only when the bus hands the
        // change back (it holds changes while it reads the log): the writer's next read must see its
        // write. Applying it a second time from the bus only moves the cache's counter on. A write no
        // public read shows (a chat message) leaves them alone.
        if (touchesPublic(change)) cache.apply(change);
        // Before the answer goes out: whoever listens (the in-process site) knows by the time the caller does.
        for (const listener of committedListeners) {
          try {
            listener(committed);
          } catch (err) {
            log.error({ err, operation: committed.name }, 'a commit listener failed');
          }
        }
      }
      return result;
    } catch (err) {
      if (err instanceof SandboxRollback) return err.result;
      throw constraintError(err) ?? err;
    }
  }

  /**
   * The path of one call, awaiting only what is really asynchronous (the handler, the store, a
   * token, Redis): a public call without a token goes from the limits to its handler without a
   * promise in between.
   */
  /** A stream operation's answer: refused at once when the hub is full, else opened once the head is out. */
  function streamAnswer(view: StreamView, lastEventID: number | undefined, clientIp: string): Answer {
    if (deps.streams.size >= config.STREAM_MAX)
      throw new ApiError(503, 'too many open streams, try again shortly', { 'Retry-After': '5' });
    if (deps.streams.openFrom(clientIp) >= config.STREAM_MAX_PER_ADDRESS)
      throw new ApiError(429, 'too many open streams from this address, close one first', { 'Retry-After': '5' });
    return {
      status: 200,
      type: STREAM_TYPE,
      body: EMPTY,
      headers: STREAM_HEADERS,
      stream: (sink) => deps.streams.open(view, lastEventID, sink, clientIp),
    };
  }

  async function dispatch(call: Call, plan: Plan | undefined): Promise<Answer> {
    /** Set while this call is the one computing a cacheable read: tells those waiting for it that it is over. */
    let finish: (() => void) | undefined;
    try {
      const ipLimit = call.as ? undefined : limit(`ip:${call.clientIp}`, config.RATE_LIMIT_CLIENT, 'from this address');
      if (ipLimit) await ipLimit;
      const token = readToken(call);
      if (token !== undefined && !call.as) {
        const tokenLimit = limit(`tk:${hashToken(token)}`, config.RATE_LIMIT_TOKEN, 'for this token');
        if (tokenLimit) await tokenLimit;
      }
      refuseMisplacedGlobals(call);

      if (!call.name) throw badRequest('action cannot be empty');
      if (!plan) throw new ApiError(404, `operation ${call.name.slice(0, 80)} does not exist`);
      const { op } = plan;
      const method = (call.method === 'HEAD' ? 'GET' : call.method) as Method;
      if (!op.methods.includes(method)) {
        throw new ApiError(405, `${op.name} accepts ${op.methods.join(' or ')}`, { Allow: op.methods.join(', ') });
      }

      // A cached public answer is keyed by the exact query string it was computed for, so a hit skips
      // parsing; only answers to fully validated calls are ever stored.
      const cacheKey =
        op.cachePublic && token === undefined && !call.as && method === 'GET'
          ? plan.cachePrefix + call.rawQuery
          : undefined;
      if (cacheKey !== undefined && !call.noCache) {
        const hit = cache.get(cacheKey);
        if (hit !== undefined) return cachedAnswer(hit, call);
        // The same read is running already (a cold cache under load: every caller misses at once). Wait
        // for it, then take what it kept — not what it computed: a change may have come since it began.
        const running = reading.get(cacheKey);
        if (running !== undefined) {
          await running;
          const kept = cache.get(cacheKey);
          if (kept !== undefined) return cachedAnswer(kept, call);
        } else {
          let done!: () => void;
          const read = new Promise<void>((resolve) => (done = resolve));
          reading.set(cacheKey, read);
          finish = () => {
            if (reading.get(cacheKey) === read) reading.delete(cacheKey);
            done();
          };
        }
      }
      // Where this read begins: a change that arrives after it makes its answer one not to keep.
      const mark = cache.mark();

      // The token first: a stale one is the caller's problem to fix before any parameter is.
      const now = Math.floor(Date.now() / 1000);
      const caller = call.as ?? (token === undefined ? anonymous(op) : await authenticate(op, token, now));

      const format = call.query.format ?? 'json';
      if (format !== 'json' && format !== 'excel' && format !== 'excel-daemon')
        throw badRequest('format must be json, excel or excel-daemon');
      if (format === 'excel-daemon' && !isReportOperation(op))
        throw badRequest(`format excel-daemon is for the lists (.find operations that page), not ${op.name}`);
      if (format === 'excel-daemon' && !caller) throw new ApiError(401, 'tokenID cannot be empty');
      const sandbox = call.query.sandbox === '1';
      if (call.query.sandbox !== undefined && call.query.sandbox !== '0' && !sandbox)
        throw badRequest('sandbox must be 0 or 1');
      // An EventSource says where to resume in a header; the query parameter, when given, wins.
      if (op.stream && call.lastEventID !== undefined && call.query.lastEventID === undefined)
        call = { ...call, query: { ...call.query, lastEventID: call.lastEventID } };
      const params = readParams(plan, call);

      const extra = readPatternParams(op, call);
      let ctx: Context = {
        db,
        caller,
        access: undefined,
        now,
        clientIp: call.clientIp,
        sandbox,
        prepared: {},
        extra,
        config,
        counter,
        jobs: deps.jobs,
        mayList: async (name, query) => {
          if (caller) await reportRows({ ...call, name, query, body: undefined, as: caller }, 1, 0);
        },
        checkCall: (name, query, body) => {
          const target = plans.get(name);
          if (!target) throw new ApiError(404, `operation ${name} does not exist`);
          readParams(target, { ...call, name, query, body });
        },
      };
      ctx = await authorize(op, ctx, params);
      if (op.prepare) ctx = { ...ctx, prepared: await op.prepare(params) };
      if (op.stream)
        return streamAnswer(await op.stream(ctx, params), params.lastEventID as number | undefined, ctx.clientIp);
      if (format === 'excel-daemon') {
        // The list's own refusals (a filter the caller may not use) come now, not as a failed report.
        await op.handler!(ctx, { ...params, limit: 1, offset: 0, paginated: undefined });
        const queued = await write(reportQueue(op, call.query), ctx, { ...params });
        return { status: 200, type: JSON_TYPE, body: encodedBody(envelope(queued as Row[])) };
      }
      const handled = op.writes ? await write(op, ctx, params) : await op.handler(ctx, params);
      // What the caller is shown of it: only now, a write's change being recorded from the handler's rows.
      const result = op.shown ? await shownOf(op.shown, ctx, params, handled) : handled;
      const rows = rowsOf(result);
      if (op.file) {
        const file = rows[0] as { body: Uint8Array; type: string; filename: string };
        return {
          status: 200,
          type: file.type,
          body: file.body,
          // (no-store: every answer has it, app.ts headersOf)
          headers: { 'content-disposition': `attachment; filename="${file.filename}"` },
        };
      }
      if (format === 'excel') {
        const disposition = `attachment; filename="${op.name.replaceAll('.', '-')}.xlsx"`;
        return {
          status: 200,
          type: XLSX_CONTENT_TYPE,
          body: toXlsx(rows),
          headers: { 'Content-Disposition': disposition },
        };
      }
      const body = encodedBody(
        envelope(rows, Array.isArray(result) || call.query.paginated !== '1' ? undefined : result.total),
      );
      if (cacheKey !== undefined && format === 'json' && !sandbox) {
        const bytes = typeof body === 'string' ? Buffer.from(body) : body;
        return cachedAnswer(cache.set(cacheKey, bytes, scopeOf(params, rows), mark), call);
      }
      return { status: 200, type: JSON_TYPE, body };
    } catch (err) {
      if (err instanceof ApiError) return errorAnswer(err.status, err.message, err.headers);
      log.error({ err, operation: call.name }, 'operation failed');
      return errorAnswer(500, 'internal error');
    } finally {
      finish?.();
    }
  }

  return {
    table,
    reportRows,
    runItem,
    invalidate: () => cache.clear(),
    /** A change committed by another process (the bus): the answers it touches are not served again. */
    applyChange: (change: ChangeRow) => {
      if (touchesPublic(change)) cache.apply(change);
    },
    /** Calls `listener` after each committed write of this process; returns its removal. */
    onCommit(listener: (c: Committed) => void): () => void {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
    },
    /** The answer to a call; operations marked `cors` add the CORS headers and answer the preflight. */
    answer(call: Call): Promise<Answer> {
      const plan = call.name === undefined ? undefined : plans.get(call.name);
      if (plan?.preflight === undefined) return dispatch(call, plan);
      if (call.method === 'OPTIONS') return Promise.resolve(plan.preflight);
      return dispatch(call, plan).then(withCors);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
