/**
 * Serialized answers of anonymous public reads (event.get, company.get, …), keyed by operation and
 * query string, held as they are sent (a long one encoded once, not on every hit). Every committed write in this process clears it. Entries also expire after
 * `ttlMs`, which bounds how stale time-derived fields (happeningNow) and writes made by another
 * process on the same store can be. `maxEntries` bounds memory (oldest entries go first).
 */
export class AnswerCache {
  readonly #entries = new Map<string, { body: string | Uint8Array; expires: number }>();
  readonly #max: number;
  readonly #ttlMs: number;

  constructor(maxEntries: number, ttlMs: number) {
    this.#max = maxEntries;
    this.#ttlMs = ttlMs;
  }

  get(key: string): string | Uint8Array | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires > Date.now()) return entry.body;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, body: string | Uint8Array): void {
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { body, expires: Date.now() + this.#ttlMs });
  }

  clear(): void {
    this.#entries.clear();
  }
}
