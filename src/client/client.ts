// The typed client of the platform API for the site (server side only; the widgets use fetch). It speaks
// the spec's HTTP interface and nothing else (RESTful style, form-encoded bodies, `{count,data}` answers
// with string scalars, `NNN message` errors), so the site works against any server that implements the
// spec. One keep-alive undici Pool per platform; identical GETs in flight are shared; answers whose bytes
// did not change since the last call reuse the parsed value (the platform answers public reads from its
// own cache, so most calls return the same bytes).

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Pool } from 'undici';
import { z } from 'zod';
import { PodiumError } from './errors.ts';
import {
  accessCodeWire,
  activityPersonDismissedWire,
  activityPersonWire,
  activityWire,
  attendeeWire,
  checkScanWire,
  checkStatsWire,
  adFindWire,
  commentWire,
  companyWire,
  envelopeOf,
  eventListItemWire,
  eventWire,
  formWire,
  guestWire,
  passwordSetWire,
  programChangeWire,
  recoverWire,
  sectionWire,
  signInWire,
  signInLinkWire,
  speakerWire,
  sponsorWire,
  tagWire,
  type AccessCodeAnswer,
  type Activity,
  type ActivityPerson,
  type Attendee,
  type AdShown,
  type CheckScan,
  type CheckStats,
  type Comment,
  type Company,
  type EventListItem,
  type Guest,
  type HotsiteSectionRow,
  type PasswordSet,
  type PodiumEvent,
  type ProgramChange,
  type RecoverAnswer,
  type RegistrationForm,
  type SignIn,
  type SignInLink,
  type Speaker,
  type Sponsor,
  type Tag,
} from './schemas.ts';
import { PAGE_SIZE_MAX, readPages, type PageRead } from '../shared/paging.ts';
import { formQuery } from '../shared/form-query.ts';
import type { Freshness, Scope } from '../shared/freshness.ts';
import { CLIENT_IP_HEADER, SITE_KEY_HEADER, type SiteKeyVerdict } from '../shared/site-key.ts';

/** What follows the platform's changes (follow.ts): while `live`, kept answers stay until a change of their scope. */
/** person.requestLink (issue 18): the event and the address a link was asked for (the same answer for any address). */
const linkRequestWire = z.object({ eventID: z.string(), email: z.string().default('') });
export type LinkRequest = z.infer<typeof linkRequestWire>;

/** What an attendee's own call answers: its rows, possibly none (person.signOut, a repeated dismiss). */
const anyRow = z.record(z.string(), z.unknown());

export interface Follow {
  readonly freshness: Freshness;
  readonly live: boolean;
}

/**
 * Told whether each call reached the platform (the site's PlatformWatch, src/site/report.ts): a platform
 * that is down fails every page, and the one who runs the site needs to hear that once, not per page.
 */
export interface Reachability {
  /** A call did not reach the platform (`cause`: the transport's one line, no path or query). */
  failed(cause: string): void;
  /** A call had an answer from the platform itself. */
  answered(): void;
}

/** A 502/504 not written by the platform (no `NNN message` line): a proxy in front says it cannot reach it. */
const fromGateway = (raw: Raw) => (raw.status === 502 || raw.status === 504) && !/^\d{3} /.test(raw.body);

export interface ClientOptions {
  /** The platform's address, e.g. http://127.0.0.1:8080 (a path prefix is kept). */
  baseUrl: string;
  /** Keep-alive connections to the platform (default 32). */
  connections?: number;
  /**
   * The platform's SITE_API_KEY: sent with every call, so the platform believes the visitor's address
   * the site forwards (X-Podium-Client-IP) and counts its per-client limits per visitor, not per site.
   */
  siteKey?: string;
  /** Milliseconds to wait for headers and for the body (default 10000). */
  timeoutMs?: number;
  /**
   * Milliseconds a GET's answer is reused without asking again (default 1000; 0 = always ask). The
   * platform itself serves public reads from a cache that may be 10 s old; this only spares the site
   * from re-reading a 300-activity program for every page it renders in the same second.
   */
  dataFreshMs?: number;
  /** The platform's change stream: while it is live, answers are kept until a change of their scope. */
  follow?: Follow;
  /** Told whether each call reached the platform. */
  reachability?: Reachability;
}

/** One platform answer a page was built from: the call and a fingerprint of its bytes. */
export interface Dependency {
  path: string;
  hash: string;
}

/** Per-request options: the visitor's address (forwarded for the platform's per-client limits), and where to record what a page read. */
export interface CallContext {
  clientIp?: string;
  deps?: Dependency[];
  /** The company the page shows, when it shows one: its scope in the page cache (changes elsewhere leave it alone). */
  companyID?: number;
  /**
   * A request of its own: no answer of the last dataFreshMs reused, none in flight joined (one may have
   * left before a write it must see). For custom-domain lookups, which the resolver shares and remembers.
   */
  fresh?: boolean;
}

/** The grant of a private event (event.checkAccessCode), when the visitor has one. */
export type Grant = string | undefined;

/** A call's query parameters (undefined ones are left out). */
type Query = Record<string, string | number | undefined>;

interface Raw {
  status: number;
  body: string;
  retryAfter?: number;
  /** The platform's verdict on the site key the call sent (X-Podium-Site-Key), if it gave one. */
  siteKey?: string;
}

interface Parsed {
  body: string;
  value: unknown;
  total?: number;
}

const MAX_MEMO = 1000;

/** What an answer depends on, as its call says: the event or company it names, else anything. */
function scopeOfPath(path: string): Scope {
  const m = /[?&](eventID|companyID)=(\d+)/.exec(path);
  if (!m) return {};
  return m[1] === 'eventID' ? { eventID: Number(m[2]) } : { companyID: Number(m[2]) };
}

interface Kept {
  raw: Raw;
  /** Without a live change stream: until when (ms since epoch) it is reused. */
  until: number;
  /** With one: its scope and the mark its request began at. */
  scope: Scope;
  mark: number;
}

export const fingerprint = (body: string): string => createHash('sha1').update(body).digest('base64url');

const rawErrors = new WeakMap<Raw, PodiumError>();
/**
 * The error of a failed answer, made once per answer object: a kept 404 read again throws the same
 * error rather than capturing a new stack each time (a quarter of an unknown address's render).
 */
function errorOf(operation: string, raw: Raw): PodiumError {
  let err = rawErrors.get(raw);
  if (err?.operation === operation) return err;
  // A proxy's 502/504 is the platform being unreachable, as a refused connection is (the same prefix:
  // the site's log counts both once, src/middleware.ts).
  if (fromGateway(raw)) {
    err = new PodiumError(raw.status, `platform unreachable: HTTP ${raw.status} from a proxy`, operation);
  } else {
    const m = /^(\d{3}) (.*)$/s.exec(raw.body.trim());
    err = new PodiumError(raw.status, m ? m[2] : `unexpected answer (HTTP ${raw.status})`, operation, raw.retryAfter);
  }
  rawErrors.set(raw, err);
  return err;
}

const rawPrints = new WeakMap<Raw, string>();
/** The fingerprint of an answer (status and bytes), computed once per answer object. */
function printOf(raw: Raw): string {
  let print = rawPrints.get(raw);
  if (print === undefined) rawPrints.set(raw, (print = fingerprint(`${raw.status} ${raw.body}`)));
  return print;
}

export class PodiumClient {
  readonly baseUrl: string;
  readonly #pool: Pool;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #inflight = new Map<string, Promise<Raw>>();
  readonly #fresh = new LRUCache<string, Kept>({ max: MAX_MEMO });
  readonly #follow: Follow | undefined;
  readonly #dataFreshMs: number;
  readonly #siteKey: string | undefined;
  readonly #reachability: Reachability | undefined;
  readonly #memo = new LRUCache<string, Parsed>({ max: MAX_MEMO });
  readonly #allMemo = new LRUCache<string, { pages: unknown[][]; out: unknown[] }>({ max: MAX_MEMO });

  constructor(options: ClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('the platform URL must be http(s)');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#prefix = url.pathname.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#dataFreshMs = options.dataFreshMs ?? 1000;
    this.#siteKey = options.siteKey;
    this.#follow = options.follow;
    this.#reachability = options.reachability;
    this.#pool = new Pool(url.origin, {
      connections: options.connections ?? 32,
      keepAliveTimeout: 30_000,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  /**
   * Whether the platform takes this client's site key (`refused`: its SITE_API_KEY differs, and it counts
   * every visitor of the site as the site): the verdict Podium sends back with api.ping (docs/deploy.md).
   * Undefined when the client has no key or the platform says nothing (a server of the spec other than
   * Podium); a platform that cannot be reached throws, as any call does, and so does an address that
   * answers api.ping with anything but 200 (a path too many: `404 operation api.api.ping does not exist`).
   */
  async siteKeyVerdict(): Promise<SiteKeyVerdict | undefined> {
    // The call every request makes (it sends the key), past the kept answers.
    const raw = await this.#request(this.pathOf('api.ping', {}), 'GET');
    if (raw.status !== 200) throw errorOf('api.ping', raw);
    if (!this.#siteKey) return undefined;
    return raw.siteKey === 'accepted' || raw.siteKey === 'refused' ? raw.siteKey : undefined;
  }

  /** The path of an operation in the RESTful style (`event.get` → /event/get) with its query. */
  pathOf(operation: string, query: Query): string {
    const qs = formQuery(query);
    return `${this.#prefix}/${operation.replaceAll('.', '/')}${qs ? `?${qs}` : ''}`;
  }

  /** The operation a path calls (`/event/get?…` → `event.get`): an error names it, never the query's values. */
  #operationOf(path: string): string {
    return path
      .slice(this.#prefix.length + 1)
      .split('?')[0]
      .replaceAll('/', '.');
  }

  async #request(
    path: string,
    method: 'GET' | 'POST',
    clientIp?: string,
    body?: string,
    again = false,
    token?: string,
  ): Promise<Raw> {
    const headers: Record<string, string> = { accept: 'application/json' };
    // A visitor's or staff member's token goes in the header, never in the URL (logs, the platform's and
    // any proxy's).
    if (token) headers.authorization = `Bearer ${token}`;
    // A re-check must see every committed change: another process of the platform may not have heard
    // of it yet, so its cached answer is not taken (Cache-Control: no-cache).
    if (again) headers['cache-control'] = 'no-cache';
    if (this.#siteKey) headers[SITE_KEY_HEADER] = this.#siteKey;
    if (clientIp) {
      // Podium believes X-Podium-Client-IP with the key; other servers of the spec may trust the site's
      // address for X-Forwarded-For (their TRUST_PROXY).
      headers[CLIENT_IP_HEADER] = clientIp;
      headers['x-forwarded-for'] = clientIp;
    }
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    let res;
    try {
      res = await this.#pool.request({ path, method, headers, body });
    } catch (err) {
      const timeout = (err as { code?: string }).code?.includes('TIMEOUT');
      this.#reachability?.failed((err as Error).message);
      throw new PodiumError(
        timeout ? 504 : 502,
        `platform unreachable: ${(err as Error).message}`,
        this.#operationOf(path),
      );
    }
    const text = await res.body.text();
    const ra = res.headers['retry-after'];
    const retryAfter = typeof ra === 'string' && /^\d+$/.test(ra) ? Number(ra) : undefined;
    const verdict = res.headers[SITE_KEY_HEADER];
    // (every answer has the same fields, so the objects share one shape)
    const raw: Raw = {
      status: res.statusCode,
      body: text,
      retryAfter,
      siteKey: typeof verdict === 'string' ? verdict : undefined,
    };
    if (fromGateway(raw)) this.#reachability?.failed(`HTTP ${raw.status} from a proxy in front of it`);
    else this.#reachability?.answered();
    return raw;
  }

  /**
   * A GET's raw answer: reused for dataFreshMs, or while the change stream is live until a change of its
   * scope; concurrent identical GETs share one request. `fresh` asks the platform in any case, past its
   * cache. Kept: successful answers, and 404s — an unknown company or event is as much an answer as a
   * known one, and a crawler's made-up addresses would otherwise each cost a platform call every time
   * (a 404's path names no id, so its scope is anything: any change at all forgets it). Never a 429, a
   * 5xx or a refusal that may pass.
   */
  raw(path: string, clientIp?: string, fresh = false): Raw | Promise<Raw> {
    const follow = this.#follow;
    if (!fresh) {
      const known = this.#fresh.get(path);
      if (known && (follow?.live ? follow.freshness.fresh(known.scope, known.mark) : known.until > Date.now()))
        return known.raw;
      const inflight = this.#inflight.get(path);
      if (inflight) return inflight;
    }
    // A fresh read never joins one in flight: that one may have left before the change it must see.
    const mark = follow?.freshness.mark() ?? 0;
    const p: Promise<Raw> = this.#request(path, 'GET', clientIp, undefined, fresh).finally(() => {
      if (this.#inflight.get(path) === p) this.#inflight.delete(path);
    });
    this.#inflight.set(path, p);
    // dataFreshMs 0 asks for every page, stream or not (benchmarks, debugging).
    if (this.#dataFreshMs > 0) {
      p.then(
        (raw) => {
          if (raw.status !== 200 && raw.status !== 404) return;
          this.#fresh.set(path, { raw, until: Date.now() + this.#dataFreshMs, scope: scopeOfPath(path), mark });
        },
        () => {},
      );
    }
    return p;
  }

  /**
   * The fingerprint of a GET's current answer, asked anew (page-cache revalidation, for the visitor
   * `clientIp` whose request found the page stale); errors fingerprint as their line.
   */
  async fingerprintOf(path: string, clientIp?: string): Promise<string> {
    return printOf(await this.raw(path, clientIp, true));
  }

  #parse<T extends z.ZodType>(operation: string, path: string, raw: Raw, item: T): PageRead<z.infer<T>> {
    if (raw.status !== 200) throw errorOf(operation, raw);
    const known = this.#memo.get(path);
    if (known && known.body === raw.body) {
      // (the get has made it the most recently used)
      return { rows: known.value as z.infer<T>[], total: known.total };
    }
    let json: unknown;
    try {
      json = JSON.parse(raw.body);
    } catch {
      throw new PodiumError(502, 'the platform answered something that is not JSON', operation);
    }
    const result = envelopeOf(item).safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new PodiumError(
        502,
        `unexpected answer: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
        operation,
      );
    }
    const value = result.data.data as z.infer<T>[];
    const total = result.data.total === undefined ? undefined : Number(result.data.total);
    this.#memo.set(path, { body: raw.body, value, total });
    return { rows: value, total };
  }

  async #get<T extends z.ZodType>(operation: string, query: Query, item: T, ctx?: CallContext): Promise<z.infer<T>[]> {
    return (await this.#page(operation, query, item, ctx)).rows as z.infer<T>[];
  }

  async #page<T extends z.ZodType>(
    operation: string,
    query: Query,
    item: T,
    ctx?: CallContext,
  ): Promise<PageRead<z.infer<T>>> {
    const path = this.pathOf(operation, query);
    const raw = ctx?.fresh ? await this.#request(path, 'GET', ctx.clientIp) : await this.raw(path, ctx?.clientIp);
    if (ctx?.deps) ctx.deps.push({ path, hash: printOf(raw) });
    return this.#parse(operation, path, raw, item);
  }

  /** Every page of a paginated find (limit 100): the first with its total, then the others in parallel. */
  async #all<T extends z.ZodType>(operation: string, query: Query, item: T, ctx?: CallContext): Promise<z.infer<T>[]> {
    const pages = (await readPages((offset, first) =>
      this.#page(
        operation,
        { ...query, limit: PAGE_SIZE_MAX, offset: offset || undefined, paginated: first ? 1 : undefined },
        item,
        ctx,
      ),
    )) as z.infer<T>[][];
    // The same pages (the same bytes) give the same array, so what callers derive from it can be reused.
    const key = this.pathOf(operation, query);
    const known = this.#allMemo.get(key);
    if (known && known.pages.length === pages.length && known.pages.every((p, i) => p === pages[i])) {
      return known.out as z.infer<T>[];
    }
    const out = pages.flat();
    this.#allMemo.set(key, { pages, out });
    return out;
  }

  async #one<T extends z.ZodType>(operation: string, query: Query, item: T, ctx?: CallContext): Promise<z.infer<T>> {
    const rows = await this.#get(operation, query, item, ctx);
    if (rows.length === 0) throw new PodiumError(404, 'not found', operation);
    return rows[0];
  }

  // ---- one method per operation the site uses ----

  /** company.get by namespace or companyID (public): the company's branding. */
  companyGet(by: { namespace: string } | { companyID: number }, ctx?: CallContext): Promise<Company> {
    return this.#one('company.get', by, companyWire, ctx);
  }

  /** company.event.find by namespace, public form: the visible public events (every page). */
  companyEventFind(namespace: string, selection = 'all', ctx?: CallContext): Promise<EventListItem[]> {
    return this.#all(
      'company.event.find',
      { namespace, selection, order: 'dateBegin', orderOrientation: 'ASC' },
      eventListItemWire,
      ctx,
    );
  }

  /** event.get by eventID, by namespace + nickname, or by cname (custom domain). */
  eventGet(
    by: { eventID: number } | { namespace: string; nickname: string } | { cname: string },
    grant?: Grant,
    ctx?: CallContext,
  ): Promise<PodiumEvent> {
    return this.#one('event.get', { ...by, grant }, eventWire, ctx);
  }

  /** event.hotsite.find: the sections in position order (an event has at most 100). */
  hotsiteFind(eventID: number, grant?: Grant, ctx?: CallContext): Promise<HotsiteSectionRow[]> {
    return this.#get('event.hotsite.find', { eventID, grant, limit: 100 }, sectionWire, ctx);
  }

  /** activity.find, public program: every activity of the event, page by page. */
  activityFind(eventID: number, grant?: Grant, ctx?: CallContext): Promise<Activity[]> {
    return this.#all('activity.find', { eventID, grant }, activityWire, ctx);
  }

  /** activity.changes (Podium extension): the program's newest changes, one page (at most 100). */
  activityChanges(eventID: number, grant?: Grant, ctx?: CallContext): Promise<ProgramChange[]> {
    return this.#get('activity.changes', { eventID, grant, limit: PAGE_SIZE_MAX }, programChangeWire, ctx);
  }

  activityGet(activityID: number, grant?: Grant, ctx?: CallContext): Promise<Activity> {
    return this.#one('activity.get', { activityID, grant }, activityWire, ctx);
  }

  speakerFind(eventID: number, grant?: Grant, ctx?: CallContext): Promise<Speaker[]> {
    return this.#all('speaker.find', { eventID, grant }, speakerWire, ctx);
  }

  speakerGet(speakerID: number, grant?: Grant, ctx?: CallContext): Promise<Speaker> {
    return this.#one('speaker.get', { speakerID, grant }, speakerWire, ctx);
  }

  sponsorFind(eventID: number, grant?: Grant, ctx?: CallContext): Promise<Sponsor[]> {
    return this.#all('sponsor.find', { eventID, grant }, sponsorWire, ctx);
  }

  /** ad.find (Podium extension): the event's ads of one place, heaviest first, each with its share by weight. */
  adFind(eventID: number, placement: 'main' | 'splash', grant?: Grant, ctx?: CallContext): Promise<AdShown[]> {
    return this.#get('ad.find', { eventID, placement, grant }, adFindWire, ctx);
  }

  /** tag.find kind=activity: the schedule's tracks and topics. */
  tagFind(eventID: number, grant?: Grant, ctx?: CallContext): Promise<Tag[]> {
    return this.#all('tag.find', { eventID, kind: 'activity', grant }, tagWire, ctx);
  }

  /** form.get: whether the event takes registrations now. */
  formGet(eventID: number, grant?: Grant, ctx?: CallContext): Promise<RegistrationForm> {
    return this.#one('form.get', { eventID, grant }, formWire, ctx);
  }

  /** event.checkAccessCode (POST; never shared or cached): the visitor's address is forwarded for the throttle. */
  async checkAccessCode(eventID: number, accessCode: string, ctx?: CallContext): Promise<AccessCodeAnswer> {
    const path = this.pathOf('event.checkAccessCode', { eventID });
    const raw = await this.#request(path, 'POST', ctx?.clientIp, new URLSearchParams({ accessCode }).toString());
    if (raw.status !== 200) return this.#parse('event.checkAccessCode', path, raw, accessCodeWire).rows[0];
    const json = (() => {
      try {
        return JSON.parse(raw.body) as unknown;
      } catch {
        return undefined;
      }
    })();
    const result = envelopeOf(accessCodeWire).safeParse(json);
    if (!result.success || result.data.data.length === 0) {
      throw new PodiumError(502, 'unexpected answer to event.checkAccessCode', 'event.checkAccessCode');
    }
    return result.data.data[0];
  }

  /**
   * person.confirm (Podium extension; POST, never shared or cached): spends the one-time code of a
   * person.recover link and sets the person's password. The code and the password travel in the body
   * only, never in a URL a log might keep; the visitor's address is forwarded for the per-client limits.
   */
  personConfirm(code: string, password: string, ctx?: CallContext): Promise<PasswordSet> {
    return this.#post('person.confirm', { code, password }, passwordSetWire, ctx);
  }

  /**
   * person.recover (Podium extension; POST, never shared or cached): asks the platform to e-mail a
   * one-time link to set the password. The answer is the same for any address, known or not; the
   * address travels in the body only, and the visitor's address is forwarded for the per-client limit.
   */
  personRecover(email: string, ctx?: CallContext): Promise<RecoverAnswer> {
    return this.#post('person.recover', { email }, recoverWire, ctx);
  }

  /**
   * person.signIn with the event (POST, never shared or cached): the check-in page's sign-in. The
   * password travels in the body only; the answer's token is the caller's to keep (docs/site.md).
   */
  personSignIn(eventID: number, username: string, password: string, ctx?: CallContext): Promise<SignIn> {
    return this.#post('person.signIn', { password }, signInWire, ctx, { username, eventID });
  }

  /**
   * checklog.checkIn at the event's entrance (or a session's door: `activityID`) with a staff token (POST,
   * never shared or cached). `nonce` is the device's id of the scan: a queue sent twice gets the first
   * answers again (docs/api/checkin.md).
   */
  checkIn(
    token: string,
    scan: { eventID: number; activityID?: number; code: string; date: number; nonce: string },
    ctx?: CallContext,
  ): Promise<CheckScan> {
    // The operation takes its parameters in the query (spec §4.8); the token stays in the header.
    return this.#post('checklog.checkIn', {}, checkScanWire, ctx, scan, token);
  }

  /**
   * activity.find with a token of the event, page by page up to `max`, asked anew every time: a staff
   * token's sessions (the check-in page's doors; private events included, as the token is the event's),
   * or an attendee's program with their enrollment (and waiting-list position) in each (/me).
   * `selection: 'enrolled'`: only the sessions the token's person is enrolled in or waits for.
   */
  async activityFindAs(
    token: string,
    eventID: number,
    ctx?: CallContext,
    max = 10_000,
    selection?: 'enrolled',
  ): Promise<Activity[]> {
    const out: Activity[] = [];
    for (let offset = 0; offset < max; offset += PAGE_SIZE_MAX) {
      const rows = await this.#readAs('activity.find', { eventID, selection, limit: PAGE_SIZE_MAX, offset: offset || undefined }, activityWire, token, ctx); // prettier-ignore
      out.push(...rows);
      if (rows.length < PAGE_SIZE_MAX) break;
    }
    return out;
  }

  /** checklog.stats with a staff token: one row per door, the entrance first (asked anew every time). */
  checkStats(token: string, eventID: number, ctx?: CallContext): Promise<CheckStats[]> {
    return this.#readAs('checklog.stats', { eventID }, checkStatsWire, token, ctx);
  }

  /**
   * comment.find selection approved (Podium extension, public): a session's approved comments, newest
   * first (the first page of 100). Read like the other public reads: shared, kept, recorded for the page cache.
   */
  commentFind(activityID: number, grant?: Grant, ctx?: CallContext): Promise<Comment[]> {
    return this.#get(
      'comment.find',
      { activityID, selection: 'approved', grant, limit: PAGE_SIZE_MAX },
      commentWire,
      ctx,
    );
  }

  /**
   * comment.find selection approved+me with a visitor's token: the approved comments and the visitor's
   * own. A request of its own, never shared, kept nor recorded: its answer is one person's.
   */
  commentFindMine(activityID: number, token: string, ctx?: CallContext): Promise<Comment[]> {
    const query = { activityID, selection: 'approved+me', limit: PAGE_SIZE_MAX };
    return this.#readAs('comment.find', query, commentWire, token, ctx);
  }

  /** comment.create with a visitor's token (POST; the text in the body). */
  commentCreate(activityID: number, text: string, token: string, ctx?: CallContext): Promise<Comment> {
    return this.#post('comment.create', { text }, commentWire, ctx, { activityID }, token);
  }

  // ---- an attendee's own registration (/me, issue 18): the attendee's token in the header, never shared ----

  /**
   * person.requestLink (POST, public): e-mails a one-time sign-in link for the event to the address when
   * it is an attendee's. The platform answers the same for any address; the address travels in the body.
   * `next`: the page of the event's site (relative to it, `/schedule`) the link leads back to.
   */
  personRequestLink(eventID: number, email: string, lang: string, ctx?: CallContext, next = ''): Promise<LinkRequest> {
    return this.#post('person.requestLink', { email, lang, ...(next ? { next } : {}) }, linkRequestWire, ctx, { eventID }); // prettier-ignore
  }

  /** person.signInLink (POST, public): spends the link's one-time code for an event-scope token (spec §2.1). */
  personSignInLink(eventID: number, code: string, ctx?: CallContext): Promise<SignInLink> {
    return this.#post('person.signInLink', { code }, signInLinkWire, ctx, { eventID });
  }

  /** person.signOut (POST): ends the token at once. Answers no row. */
  async personSignOut(token: string, ctx?: CallContext): Promise<void> {
    await this.#callAs('person.signOut', 'POST', {}, {}, anyRow, token, ctx);
  }

  /** event.person.get without personID: the token's own attendee record (qrCode, answers). */
  async attendeeMine(eventID: number, token: string, ctx?: CallContext): Promise<Attendee> {
    const [row] = await this.#callAs('event.person.get', 'GET', { eventID }, undefined, attendeeWire, token, ctx);
    if (!row) throw new PodiumError(404, 'person not found', 'event.person.get');
    return row;
  }

  /** event.person.operate without personID: one field of the token's own record (B value). */
  async attendeeOperateMine(
    eventID: number,
    key: string,
    value: string,
    token: string,
    ctx?: CallContext,
  ): Promise<void> {
    await this.#callAs('event.person.operate', 'POST', { eventID, key }, { value }, anyRow, token, ctx);
  }

  /**
   * The attendee's own answers to the form's custom fields (event.person.operate key feedbackContent,
   * the list form.respondRegistration takes: [{feedbackID, value}]).
   */
  async attendeeAnswersMine(
    eventID: number,
    answers: { feedbackID: string; value: string }[],
    token: string,
    ctx?: CallContext,
  ): Promise<void> {
    await this.attendeeOperateMine(eventID, 'feedbackContent', JSON.stringify(answers), token, ctx);
  }

  /** form.get with the attendee's token (a private event's form too): its fields and whether it is open. */
  async formGetAs(eventID: number, token: string, ctx?: CallContext): Promise<RegistrationForm> {
    const [row] = await this.#callAs('form.get', 'GET', { eventID }, undefined, formWire, token, ctx);
    if (!row) throw new PodiumError(404, 'form not found', 'form.get');
    return row;
  }

  /** event.person.dismiss without personID: the token's attendee cancels their registration (idempotent). */
  async attendeeDismissMine(eventID: number, token: string, ctx?: CallContext): Promise<void> {
    await this.#callAs('event.person.dismiss', 'GET', { eventID }, undefined, anyRow, token, ctx);
  }

  /** activity.person.get without personID: the token's own enrollment (its waiting-list position). */
  async activityPersonMine(activityID: number, token: string, ctx?: CallContext): Promise<ActivityPerson | undefined> {
    const rows = await this.#callAs('activity.person.get', 'GET', { activityID }, undefined, activityPersonWire, token, ctx); // prettier-ignore
    return rows[0];
  }

  /** activity.person.bind without personID (POST): the attendee enrols (seat or waiting list). */
  async activityEnrol(activityID: number, token: string, ctx?: CallContext): Promise<ActivityPerson | undefined> {
    const rows = await this.#callAs('activity.person.bind', 'POST', { activityID }, {}, activityPersonWire, token, ctx);
    return rows[0];
  }

  /** activity.person.dismiss without personID (POST): the attendee leaves (their seat goes to the waiting list). */
  async activityLeave(activityID: number, token: string, ctx?: CallContext): Promise<void> {
    await this.#callAs('activity.person.dismiss', 'POST', { activityID }, {}, activityPersonDismissedWire, token, ctx);
  }

  /** event.guest.find with the attendee's token: their own guests. */
  guestFindMine(eventID: number, token: string, ctx?: CallContext): Promise<Guest[]> {
    return this.#callAs('event.guest.find', 'GET', { eventID, limit: PAGE_SIZE_MAX }, undefined, guestWire, token, ctx);
  }

  /** event.guest.dismiss of one of the attendee's own guests. */
  async guestDismissMine(eventID: number, guestID: number, token: string, ctx?: CallContext): Promise<void> {
    await this.#callAs('event.guest.dismiss', 'GET', { eventID, personID: guestID }, undefined, guestWire, token, ctx);
  }

  /**
   * One call made for one person (their token), read or write: asked anew (never shared, kept nor
   * memoized), its rows parsed with `item` (none is fine); a refusal is a PodiumError.
   */
  async #callAs<T extends z.ZodType>(
    operation: string,
    method: 'GET' | 'POST',
    query: Query,
    body: Record<string, string> | undefined,
    item: T,
    token: string,
    ctx?: CallContext,
  ): Promise<z.infer<T>[]> {
    const path = this.pathOf(operation, query);
    const form = body === undefined ? undefined : new URLSearchParams(body).toString();
    const raw = await this.#request(path, method, ctx?.clientIp, form, method === 'GET', token);
    if (raw.status !== 200) this.#parse(operation, path, raw, item);
    const result = envelopeOf(item).safeParse(jsonOf(raw.body));
    if (!result.success) throw new PodiumError(502, `unexpected answer to ${operation}`, operation);
    return result.data.data as z.infer<T>[];
  }

  /** A read made for one person (their token): asked anew, parsed here, never shared nor memoized. */
  async #readAs<T extends z.ZodType>(
    operation: string,
    query: Query,
    item: T,
    token: string,
    ctx?: CallContext,
  ): Promise<z.infer<T>[]> {
    const path = this.pathOf(operation, query);
    const raw = await this.#request(path, 'GET', ctx?.clientIp, undefined, true, token);
    if (raw.status !== 200) this.#parse(operation, path, raw, item);
    const result = envelopeOf(item).safeParse(jsonOf(raw.body));
    if (!result.success) throw new PodiumError(502, `unexpected answer to ${operation}`, operation);
    return result.data.data as z.infer<T>[];
  }

  /** A form-encoded POST whose answer must hold one row of `item`; errors become PodiumError. */
  async #post<T extends z.ZodType>(
    operation: string,
    body: Record<string, string>,
    item: T,
    ctx?: CallContext,
    query: Query = {},
    token?: string,
  ): Promise<z.infer<T>> {
    const path = this.pathOf(operation, query);
    const raw = await this.#request(path, 'POST', ctx?.clientIp, new URLSearchParams(body).toString(), false, token);
    // Not 200: #parse throws the platform's `NNN message` line as a PodiumError (and memoizes nothing).
    if (raw.status !== 200) return this.#parse(operation, path, raw, item).rows[0];
    let json: unknown;
    try {
      json = JSON.parse(raw.body);
    } catch {
      json = undefined;
    }
    const result = envelopeOf(item).safeParse(json);
    if (!result.success || result.data.data.length === 0) {
      throw new PodiumError(502, `unexpected answer to ${operation}`, operation);
    }
    return result.data.data[0] as z.infer<T>;
  }
}

function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export function createClient(options: ClientOptions): PodiumClient {
  return new PodiumClient(options);
}
