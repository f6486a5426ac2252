import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { brotliCompress, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { brotliParams } from '../../net/brotli.ts';
import { ownBytes } from '../../net/bytes.ts';
import { Freshness, type ChangeScope, type Scope } from '../../shared/freshness.ts';

// Answers of anonymous public reads (event.get, activity.find, …), kept as the bytes they are sent as,
// with their br and gzip variants made once and an ETag (issue 11, item 4).
//
// Staying true on many processes: every change committed anywhere reaches `apply` (from this process's
// dispatcher at once, from the others through the bus); src/shared/freshness.ts tells which answers it
// made stale, by their scope and the mark their read began at. Entries also expire after `ttlMs`, which
// bounds time-derived fields (happeningNow) and writers that log no change (a hand-written SQL statement).

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type { Scope, ChangeScope } from '../../shared/freshness.ts';

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
  readonly #entries: LRUCache<string, Entry>;
  readonly #ttlMs: number;
  readonly #freshness = new Freshness();

  constructor(maxEntries: number, ttlMs: number) {
    this.#entries = new LRUCache({ max: maxEntries });
    this.#ttlMs = ttlMs;
  }

  /** Where a read begins: its answer may be stored only against this mark. */
  mark(): number {
    return this.#freshness.mark();
  }

  /** A committed change, from any process. */
  apply(change: ChangeScope): void {
    this.#freshness.apply(change);
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires > Date.now() && this.#freshness.fresh(entry.scope, entry.mark)) return entry.answer;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * Keeps the answer of a read that began at `mark`, unless a change of its scope came meanwhile;
   * answers what to send either way (with its ETag).
   */
  set(key: string, body: Uint8Array, scope: Scope, mark: number): CachedAnswer {
    if (!this.#freshness.fresh(scope, mark)) return { body, etag: etagOf(body) };
    // (a small body is a view on Buffer's 64 KB pool: kept, the bytes alone)
    const answer: CachedAnswer = { body: ownBytes(body), etag: etagOf(body) };
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
    brotliAsync(answer.body, { params: brotliParams(9, answer.body.byteLength) }),
    gzipAsync(answer.body, { level: 9 }),
  ]);
  // (zlib's output is a view on its output chunk: kept, the bytes alone)
  answer.br = ownBytes(br);
  answer.gzip = ownBytes(gz);
}
