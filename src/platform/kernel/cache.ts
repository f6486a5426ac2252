import { createHash } from 'node:crypto';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';

// Answers of anonymous public reads (event.get, activity.find, …), kept as the bytes they are sent as,
// with their br and gzip variants made once and an ETag (issue 11, item 4).
//
// Staying true on many processes: every change committed anywhere reaches `apply` (from this process's
// dispatcher at once, from the others through the bus). Each change moves a local counter on and notes
// it against its event and company. An answer belongs to one event, one company, or neither (its
// scope); it is served only while no change of its scope arrived after the read that made it began
// (`mark`), so a write to one event leaves every other event's answers alone, and a read that ran
// before a commit can never store its answer past that commit: the commit's change arrives after the
// mark, and the answer is born stale. A local counter rather than change ids, because ids from
// different transactions may commit out of order. Entries also expire after `ttlMs`, which bounds
// time-derived fields (happeningNow) and writers that log no change (a hand-written SQL statement).

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** What an answer depends on: one event (and so its company), one company, or anything (neither). */
export interface Scope {
  readonly eventID?: number;
  readonly companyID?: number;
}

/** A change as the cache needs it: where it happened. */
export interface ChangeScope {
  readonly eventID: number | null;
  readonly companyID: number | null;
}

export interface CachedAnswer {
  readonly body: Uint8Array;
  readonly etag: string;
  /** Filled in once compressed (in the background: the first answers go out as they are). */
  br?: Uint8Array;
  gzip?: Uint8Array;
}

interface Entry {
  readonly answer: CachedAnswer;
  readonly scope: Scope;
  readonly mark: number;
  readonly expires: number;
}

/** Bodies smaller than this are not worth compressing (headers outweigh the saving). */
export const COMPRESS_MIN_BYTES = 1024;

export class AnswerCache {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #ttlMs: number;
  #seq = 0;
  /** The counter when each event, each company last changed; when any company-wide change and any change came. */
  readonly #events = new Map<number, number>();
  readonly #companies = new Map<number, number>();
  #companyWide = 0;
  #any = 0;

  constructor(maxEntries: number, ttlMs: number) {
    this.#max = maxEntries;
    this.#ttlMs = ttlMs;
  }

  /** Where a read begins: its answer may be stored only against this mark. */
  mark(): number {
    return this.#seq;
  }

  /** A committed change, from any process. A change of no company and no event (a person's own) changes no public answer. */
  apply(change: ChangeScope): void {
    if (change.eventID === null && change.companyID === null) return;
    const seq = ++this.#seq;
    this.#any = seq;
    if (change.eventID !== null) this.#events.set(change.eventID, seq);
    if (change.companyID !== null) this.#companies.set(change.companyID, seq);
    // A company's own change (its name, colours, tags) may show in any of its events' answers.
    if (change.eventID === null) this.#companyWide = seq;
  }

  #fresh(scope: Scope, mark: number): boolean {
    if (scope.eventID !== undefined) return mark >= (this.#events.get(scope.eventID) ?? 0) && mark >= this.#companyWide;
    if (scope.companyID !== undefined) return mark >= (this.#companies.get(scope.companyID) ?? 0);
    return mark >= this.#any;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires > Date.now() && this.#fresh(entry.scope, entry.mark)) return entry.answer;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * Keeps the answer of a read that began at `mark`, unless a change of its scope came meanwhile;
   * answers what to send either way (with its ETag).
   */
  set(key: string, body: Uint8Array, scope: Scope, mark: number): CachedAnswer {
    const answer: CachedAnswer = { body, etag: etagOf(body) };
    if (!this.#fresh(scope, mark)) return answer;
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { answer, scope, mark, expires: Date.now() + this.#ttlMs });
    if (body.byteLength >= COMPRESS_MIN_BYTES) void compressInto(answer);
    return answer;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** A strong ETag: the body's digest (the same bytes on every process give the same tag). */
export const etagOf = (body: Uint8Array): string =>
  `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/** Makes the answer's br and gzip variants once, off the request path (zlib runs in the thread pool). */
async function compressInto(answer: CachedAnswer): Promise<void> {
  const [br, gz] = await Promise.all([
    brotliAsync(answer.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzipAsync(answer.body, { level: 9 }),
  ]);
  answer.br = br;
  answer.gzip = gz;
}
