import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../auth/caller.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Config } from '../config.ts';
import type { Counter } from '../limits/counter.ts';
import { text, wholeNumber } from '../schemas.ts';
import type { StreamView } from '../stream/hub.ts';

export type Method = 'GET' | 'POST';
export type Place = 'query' | 'body';

/** One declared parameter: where it is read from (spec §4 Q/B) and how it is validated. */
export interface Param<S extends z.ZodType = z.ZodType, O extends boolean = boolean> {
  readonly place: Place;
  readonly schema: S;
  readonly optional: O;
  readonly description: string;
}

const param =
  <P extends Place, O extends boolean>(place: P, optional: O) =>
  <S extends z.ZodType>(schema: S, description = ''): Param<S, O> => ({ place, schema, optional, description });

/** Parameter read from the query string (Q in the spec tables). */
export const q = param('query', false);
/** Optional query parameter (Q name?). */
export const qOpt = param('query', true);
/** Parameter read from the form-encoded body (B). */
export const b = param('body', false);
/** Optional body parameter (B name?). */
export const bOpt = param('body', true);

export type Params = Record<string, Param>;
export type ParamValues<P extends Params> = {
  [K in keyof P]: P[K] extends Param<infer S, infer O>
    ? O extends true
      ? z.output<S> | undefined
      : z.output<S>
    : never;
};

export { LEVEL, ANY_LEVEL, COMPANY_LEVEL } from '../auth/levels.ts';

/**
 * Who may call. `public`: no token needed (one is used when given). `token`: any valid token.
 * `operator`: a platform operator's system token. `company`: a system token of a person of the
 * company named by `companyID` (admin or any member). `event`: a token whose level in the event
 * named by `eventID` has one of the bits in `levels` (company admins count as event admins).
 * Anyone with no relation to the company/event gets 404, as if it did not exist.
 */
export type Auth =
  | { readonly kind: 'public' }
  | { readonly kind: 'token' }
  | { readonly kind: 'operator' }
  | { readonly kind: 'company'; readonly role: 'admin' | 'member' }
  | {
      readonly kind: 'event';
      readonly levels: number;
      readonly via?: readonly OwnerParam[];
      /**
       * An event-scope token of this very event whose person is no longer related to it (they left) is
       * let through with level 0 instead of the 404 of an unrelated caller: event.person.dismiss, where
       * cancelling one's own registration a second time answers as the first did (issue 18).
       */
      readonly formerMember?: true;
    };

/**
 * Parameters that name an object inside one event: an `event` rule with `via` finds the event
 * through the first of them the call carries (default: `eventID`). The object's own table has a
 * column of the same name and an `eventID` column; a missing object is a 404 naming it, and so is
 * an object of an event the caller has no relation to (the same line: ids of another tenant are
 * not told from unknown ones).
 */
export const OWNERS = {
  eventID: 'event',
  activityID: 'activity',
  chainID: 'chain',
  listID: 'list',
  speakerID: 'speaker',
  sponsorID: 'sponsor',
  tagID: 'tag',
  sectionID: 'hotsite',
  feedbackID: 'feedback',
  eventEmailID: 'eventEmail',
  eventBlacklistID: 'eventBlacklist',
  budgetID: 'budget',
  adID: 'ad',
  eventSanityID: 'eventSanity',
  chatID: 'chat',
  commentID: 'comment',
  beaconEventID: 'beaconEvent',
  beaconActionID: 'beaconAction',
} as const;
export type OwnerParam = keyof typeof OWNERS;

/** What the dispatcher learned while authorizing a `company` or `event` rule. */
export interface Access {
  readonly companyID: number;
  readonly eventID?: number;
  /** Event level bits (event rules) or company level (company rules). */
  readonly level: number;
}

export type Row = Record<string, unknown>;
/** What a handler returns: rows, or a page of rows with the total for `paginated=1`. */
export type Result = Row[] | { rows: Row[]; total: number };

/** A handler's rows, paged or not. */
export const rowsOf = (result: Result): Row[] => (Array.isArray(result) ? result : result.rows);

export interface Context {
  /** The store; inside a write operation this is the transaction. */
  readonly db: Kysely<DB>;
  readonly caller: Caller | undefined;
  /** Set for `company` and `event` rules: the target and the caller's level there. */
  readonly access: Access | undefined;
  /** Unix seconds at the start of the call. */
  readonly now: number;
  readonly clientIp: string;
  readonly sandbox: boolean;
  /** What the operation's `prepare` computed before the transaction (e.g. a password hash). */
  readonly prepared: Readonly<Record<string, unknown>>;
  /** Values of the operation's `patternParams` (e.g. feedback_12), by parameter name. */
  readonly extra: Readonly<Record<string, unknown>>;
  readonly config: Config;
  readonly counter: Counter;
  /**
   * The durable job queue: `ctx.jobs.add(ctx.db, name, payload)` inside a write adds the job in its
   * transaction (e-mails are jobs: src/platform/jobs).
   */
  readonly jobs: Pick<JobQueue, 'add'>;
  /**
   * Inside a write: tells of a further change the call made besides its own, as the write `operation`
   * with `params` would record it (a waiting-list promotion inside event.person.dismiss is told as an
   * `event.person.operate` of the promoted attendee: their record changed). Recorded in the change log
   * in the same transaction, after the call's own change: webhooks, push channels and caches hear of it.
   */
  readonly alsoChanged?: (operation: string, params: Readonly<Record<string, unknown>>) => void;
  /**
   * Set when a report job (format=excel-daemon, src/platform/reports) reads a page of a list: its pages
   * may be longer than PAGE_LIMIT_MAX (the job reads REPORT_PAGE_ROWS at a time).
   */
  readonly report?: ReportPage;
  /**
   * Whether the caller may read the list `name` with `query` now: its rule and its handler's own checks,
   * run for one row; throws the refusal (download.file checks again before it hands a report over).
   */
  readonly mayList?: (name: string, query: Readonly<Record<string, string>>) => Promise<void>;
  /**
   * Validates the parameters of a call to the operation `name` as the dispatcher would (placement, required,
   * schemas), without running it; throws its `400` (daemon.bulk checks each item before it queues one).
   */
  readonly checkCall?: (
    name: string,
    query: Readonly<Record<string, string>>,
    body: Readonly<Record<string, string>> | undefined,
  ) => void;
}

/**
 * A report's page (ctx.report). A list may read it by key instead of by `offset` (keyset pagination:
 * an OFFSET reads every row it skips again, so a report's page k costs k pages): it then sets `next` to
 * where its page ended, and the report's next page comes with that as `after` (its offset is then only
 * a count). A list that leaves `next` unset is read by offset.
 */
export interface ReportPage {
  /** Where the previous page ended, as its `next` said (undefined: the first page). */
  readonly after: unknown;
  next?: unknown;
}

interface OperationBase<P extends Params> {
  /** `module.operation`, as in the spec. */
  readonly name: string;
  readonly summary: string;
  readonly methods: readonly Method[];
  readonly params: P;
  /**
   * Parameters whose names follow a pattern rather than being listed (spec §4.4 `feedback_<id>`):
   * every query key matching `pattern` is validated with `param` and handed over in `ctx.extra`.
   */
  readonly patternParams?: { readonly pattern: RegExp; readonly example: string; readonly param: Param };
  /** Alternative required sets when the spec lists several forms (e.g. company.get). */
  readonly variants?: ReadonlyArray<ReadonlyArray<keyof P & string>>;
  readonly auth: Auth;
  /**
   * `public` operations only. A token that is not valid (unknown, expired, revoked) is ignored and the
   * call runs anonymously, where every other operation answers `401 tokenID is not valid or has
   * expired`. Only for the operations a client holding a stale token must still reach to get a new
   * one: signing in, recovering a password, registering (docs/api.md "Auth").
   */
  readonly staleTokenIgnored?: boolean;
  /**
   * The row the answer's `data` holds (src/shared/wire): the OpenAPI document's 200 answer is made
   * from it. Left out, the document says only that `data` holds objects.
   */
  readonly answer?: z.ZodObject;
  /**
   * The handler answers one row `{ body: Uint8Array, type, filename }`, sent as the answer's bytes
   * rather than an envelope (download.file: a report's spreadsheet).
   */
  readonly file?: true;
  /**
   * Also takes an `application/json` body (every call takes forms, spec §1.1): for the inbound webhooks
   * other systems post JSON to (event.email.bounce). At most `maxBytes` (below BODY_LIMIT); `schema`
   * checks the JSON and maps it to the same body parameters a form would give, which are then checked
   * as any form's.
   */
  readonly json?: { readonly maxBytes: number; readonly schema: z.ZodType<Record<string, string>> };
  /** True when the operation is not in the spec (a Podium extension, see docs/api.md). */
  readonly extension?: boolean;
  /** Writes run in a transaction (rolled back for sandbox=1) and invalidate cached public answers. */
  readonly writes: boolean;
  /** Anonymous answers may be served from the cache of serialized public answers. */
  readonly cachePublic?: boolean;
  /**
   * Callable from any web page (the embeddable widgets): every answer, errors included, carries
   * `Access-Control-Allow-Origin: *` (never credentials) and OPTIONS answers the CORS preflight.
   */
  readonly cors?: boolean;
  /**
   * Slow work that needs no store, such as hashing a password (scrypt, ~30 ms), run after validation
   * and authorization but before the write transaction: on SQLite a transaction holds the store's one
   * connection, so hashing inside it would stall every other call. The handler reads `ctx.prepared`.
   */
  readonly prepare?: (params: ParamValues<P>) => Promise<Record<string, unknown>>;
}

/**
 * An operation answers rows (`handler`), or stays open and tells its caller of committed changes as
 * Server-Sent Events (`stream`: what the caller may hear of each change; src/platform/stream/hub.ts).
 * A stream operation may declare a `lastEventID` query parameter: the dispatcher fills it from the
 * `Last-Event-ID` header when the query has none, and the stream resumes after it.
 */
export type Operation<P extends Params = Params> = RowsOperation<P> | StreamOperation<P>;
export type RowsOperation<P extends Params = Params> = OperationBase<P> & {
  readonly handler: (ctx: Context, params: ParamValues<P>) => Promise<Result>;
  /**
   * What the caller is shown of the handler's rows, when it is less than what happened. The dispatcher
   * calls it on the answer of a call (after a write's transaction has recorded its change, which is
   * made from the handler's rows: kernel/changes.ts), so the change log, webhooks, push and commit
   * listeners keep the real rows while the caller gets these. Outside the transaction (`ctx.db` is the
   * store); `rows` are as the handler made them (stored values, not yet strings). Left out: the rows.
   * form.respondRegistration blanks a repeat's ids for a caller who is not the person (docs/api/registration.md).
   */
  readonly shown?: (ctx: Context, params: ParamValues<P>, rows: Row[]) => Promise<Row[]>;
  readonly stream?: undefined;
};
export type StreamOperation<P extends Params = Params> = OperationBase<P> & {
  /** May check the caller first (push.subscribe reads the event): a refusal is answered before any stream. */
  readonly stream: (ctx: Context, params: ParamValues<P>) => StreamView | Promise<StreamView>;
  readonly handler?: undefined;
};

export type AnyOperation = Operation<any>;

/** Declares an operation; the identity function exists for type inference of params in handler. */
export function defineOperation<P extends Params>(op: RowsOperation<P>): RowsOperation<P>;
export function defineOperation<P extends Params>(op: StreamOperation<P>): StreamOperation<P>;
export function defineOperation<P extends Params>(op: Operation<P>): Operation<P> {
  return op;
}

/**
 * The lists that take format=excel-daemon (an asynchronous spreadsheet report, spec §1.4): the `.find`
 * reads that page (limit and offset). A report job reads them page by page (docs/api/reports.md).
 */
export function isReportOperation(op: AnyOperation): boolean {
  return (
    op.name.endsWith('.find') && !op.writes && !op.stream && !op.file && 'limit' in op.params && 'offset' in op.params
  );
}

import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, type Page } from '../db/page.ts';
export { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, type Page };

/** The pagination parameters shared by every paginated list (spec §8). */
export const pageParams = {
  limit: qOpt(
    z.coerce
      .number('must be a whole number')
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(PAGE_LIMIT_MAX, `must be at most ${PAGE_LIMIT_MAX}`),
    `items per page (default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX})`,
  ),
  offset: qOpt(wholeNumber, 'items to skip'),
  paginated: qOpt(z.enum(['0', '1'], 'must be 0 or 1'), '1 adds "total" to the answer'),
} satisfies Params;

export function pageOf(p: { limit?: number; offset?: number; paginated?: '0' | '1' }): Page {
  return { limit: p.limit ?? PAGE_LIMIT_DEFAULT, offset: p.offset ?? 0, paginated: p.paginated === '1' };
}

/**
 * The parameters of an edit-style operation (spec §1.3): Q `key` names the field, B `value` holds its
 * new value, at most `max` characters (the dispatcher refuses a call whose body has no `value`).
 */
export function editParams(
  max: number,
  value = 'new value; empty clears fields that may be empty',
  key = 'field to edit',
) {
  return {
    key: q(text(60), key),
    value: bOpt(z.string().max(max, `must be at most ${max} characters`), value),
  };
}
