import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { changesSince, type ChangeRow } from '../resources/change/log.ts';
import { describe } from './log.ts';

// One process's side of the bus, whatever carries the messages: it hands each committed change to
// every local listener exactly once, and reads the change log to fill what the transport missed.
//
// The transport is fast but not reliable (a dropped connection loses what was published meanwhile; a
// process can die between its commit and its publish), the log is reliable but read only now and
// then. Three readings of the log close the gap:
// - after each (re)connection (`sweep`), for what was published while this process was not listening;
// - every `pollMs` (`sweep` too), for changes whose publish never happened;
// - a message that is only an id range (a batch too big for the transport) is read from the log.
// A change can reach this process by several of these ways, so delivered ids are remembered.
//
// On PostgreSQL ids are taken when a transaction inserts and become visible when it commits, so a lower
// id can appear after a higher one. A sweep therefore does not start at the highest delivered id: it
// starts where the log ended `settlePolls` polls ago, and skips the ids it has delivered since.

export type Listener = (change: ChangeRow) => void;

export interface DeliveryOptions {
  db: Kysely<DB>;
  warn: (key: string, line: string) => void;
  pollMs: number;
  /** How many polls back a sweep starts: a transaction may commit that late without being missed. */
  settlePolls?: number;
  /** Most delivered ids remembered (bounded memory); older ones count as delivered. */
  maxSeen?: number;
  /** Rows read from the log per query. */
  page?: number;
}

// Live changes held while the log is being read, so what the read finds goes out first, in id order.
// Past this, further ones are dropped and found by another read of the log.
const MAX_PENDING = 10_000;

export class Delivery {
  readonly #db: Kysely<DB>;
  readonly #warn: (key: string, line: string) => void;
  readonly #pollMs: number;
  readonly #maxSeen: number;
  readonly #page: number;
  readonly #listeners = new Set<Listener>();
  /** Delivered ids, oldest first (a Set keeps insertion order). */
  readonly #seen = new Set<number>();
  /** Ids at or below this count as delivered: they were forgotten to keep #seen bounded. */
  #forgotten = 0;
  /** Where the log ended at each of the last polls, oldest first; sweeps start at the oldest. */
  #marks: number[];
  #pending: ChangeRow[] = [];
  #dropped = false;
  /** Log reads queued or running: live changes wait meanwhile. */
  #reading = 0;
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(o: DeliveryOptions) {
    this.#db = o.db;
    this.#warn = o.warn;
    this.#pollMs = o.pollMs;
    this.#maxSeen = o.maxSeen ?? 10_000;
    this.#page = o.page ?? 500;
    this.#marks = new Array<number>(Math.max(1, o.settlePolls ?? 2)).fill(0);
  }

  /**
   * Where a sweep starts (the log's end `settlePolls` polls ago): every change above it reaches the
   * listeners, late perhaps, so a reader that resumes after it misses nothing this process hears.
   */
  get settled(): number {
    return this.#marks[0];
  }

  /** Number of ids remembered (for tests of the memory bound). */
  get remembered(): number {
    return this.#seen.size;
  }

  /** Starts after `lastID` (the log's newest id when this process began to listen) and starts polling. */
  start(lastID: number): void {
    this.#marks.fill(lastID);
    this.#schedule();
  }

  subscribe(listener: Listener): () => void {
    // Wrapped, so the same function subscribed twice is two subscriptions, each removed by its own call.
    const entry: Listener = (c) => listener(c);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  /** Changes that came through the transport (or this process's own publish). */
  live(rows: readonly ChangeRow[]): void {
    if (this.#closed) return;
    if (this.#reading === 0) return this.#deliver(rows);
    if (this.#pending.length + rows.length > MAX_PENDING) this.#dropped = true;
    else this.#pending.push(...rows);
  }

  /** Reads the log from the last settled mark and delivers what was missed. */
  sweep(): Promise<void> {
    return this.#read(async () => {
      await this.#readLog(Math.max(this.#marks[0], this.#forgotten), Infinity);
    });
  }

  /** Reads the ids `from`..`to` from the log (a batch announced by its range). */
  range(from: number, to: number): Promise<void> {
    return this.#read(async () => {
      await this.#readLog(Math.max(from - 1, this.#forgotten), to);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#listeners.clear();
    this.#pending = [];
    await this.#chain;
  }

  /** Delivers the log's rows above `after` up to `to`; answers the highest id read (`after` when none). */
  async #readLog(after: number, to: number): Promise<number> {
    let cursor = after;
    for (;;) {
      const rows = await changesSince(this.#db, cursor, this.#page);
      const wanted = rows.filter((r) => r.changeID <= to);
      this.#deliver(wanted);
      if (wanted.length > 0) cursor = wanted[wanted.length - 1].changeID;
      if (rows.length < this.#page || wanted.length < rows.length || this.#closed) return cursor;
    }
  }

  /** Runs one read of the log after the ones before it; live changes wait until the reads are done. */
  #read(task: () => Promise<void>): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#reading++;
    const run = this.#chain
      .then(task)
      .catch((err: unknown) => {
        this.#warn('read', `bus: reading the change log failed: ${describe(err)}`);
      })
      .finally(() => {
        if (--this.#reading === 0) this.#flush();
      });
    this.#chain = run;
    return run;
  }

  #flush(): void {
    const pending = this.#pending.sort((a, b) => a.changeID - b.changeID);
    this.#pending = [];
    this.#deliver(pending);
    if (this.#dropped) {
      this.#dropped = false;
      void this.sweep();
    }
  }

  #deliver(rows: readonly ChangeRow[]): void {
    for (const row of rows) {
      const id = row.changeID;
      if (this.#closed || id <= this.#forgotten || this.#seen.has(id)) continue;
      this.#remember(id);
      for (const listener of this.#listeners) {
        try {
          listener(row);
        } catch (err) {
          // One listener's bug must not cost the others their changes.
          this.#warn('listener', `bus: a change listener failed: ${describe(err)}`);
        }
      }
    }
  }

  #remember(id: number): void {
    this.#seen.add(id);
    if (this.#seen.size <= this.#maxSeen) return;
    // Forget the oldest tenth at once rather than one id per delivery.
    let drop = Math.max(1, Math.floor(this.#maxSeen / 10));
    for (const old of this.#seen) {
      this.#seen.delete(old);
      this.#forgotten = Math.max(this.#forgotten, old);
      if (--drop === 0) break;
    }
  }

  /** The safety-net poll: one sweep every pollMs, the next timed from the end of the last. */
  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      void this.#read(async () => {
        const end = await this.#readLog(Math.max(this.#marks[0], this.#forgotten), Infinity);
        // The mark moves only when the read succeeded: a failed poll leaves the window where it was.
        this.#marks.push(Math.max(end, this.#marks[this.#marks.length - 1]));
        this.#marks.shift();
      }).finally(() => this.#schedule());
    }, this.#pollMs);
    // The poll alone never keeps a process alive; close() stops it.
    this.#timer.unref();
  }
}
