// Following the platform's committed changes (change.subscribe, Server-Sent Events) so that what the
// site keeps (platform answers, rendered pages) stays until something it depends on changed, instead of
// being re-checked every second or two. While the stream is open, `live` is true and `freshness` holds
// every change heard; when it drops, `live` turns false (the site goes back to re-checking on a timer)
// and the follower reconnects with the last id it had, so the platform replays what was missed. A
// `reset` (more missed than the platform keeps) or a reconnection without an id makes everything stale.
// The platform gives a stream opened without an id one to resume from, so only the first connection
// starts over.

import { Pool } from 'undici';
import { createParser } from 'eventsource-parser';
import { Freshness, type ChangeScope } from '../shared/freshness.ts';
import { changeMessageWire } from '../shared/wire/change.ts';

export interface FollowOptions {
  /** The platform's address (a path prefix is kept). */
  baseUrl: string;
  /** First delay before reconnecting, doubled up to 10 s (default 250 ms). */
  retryMs?: number;
  /** Called when the stream opens or drops (tests and logs). */
  onLive?: (live: boolean) => void;
}

/** What the follower did to its freshness, in order: a change, everything stale, or the stream opened or dropped. */
export type FollowEvent = { change: ChangeScope } | { all: true } | { live: boolean };

export class ChangeFollower {
  readonly freshness = new Freshness();
  /** True while the stream is open: what is kept stays fresh until a change of its scope. */
  live = false;
  /** Changes heard (messages applied), for tests and metrics. */
  heard = 0;
  #lastID: string | undefined;
  #closed = false;
  #abort: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #pool: Pool;
  readonly #path: string;
  readonly #retryMs: number;
  readonly #onLive: ((live: boolean) => void) | undefined;
  #ready: Promise<void>;
  #whenLive: () => void = () => {};
  readonly #watchers: ((event: FollowEvent) => void)[] = [];

  constructor(options: FollowOptions) {
    const url = new URL(options.baseUrl);
    this.#pool = new Pool(url.origin, { connections: 1, bodyTimeout: 0, headersTimeout: 10_000 });
    this.#path = `${url.pathname.replace(/\/+$/, '')}/change/subscribe`;
    this.#retryMs = options.retryMs ?? 250;
    this.#onLive = options.onLive;
    this.#ready = new Promise((resolve) => (this.#whenLive = resolve));
    void this.#run();
  }

  /** Resolves once the stream has opened (the first time). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /**
   * Calls `watcher` with each change applied to `freshness`, each time everything went stale, and each
   * time `live` turns, in that order: a copy of the freshness elsewhere (the site's front thread) stays
   * the same as this one.
   */
  watch(watcher: (event: FollowEvent) => void): void {
    this.#watchers.push(watcher);
  }

  #tell(event: FollowEvent): void {
    for (const watcher of this.#watchers) watcher(event);
  }

  #applyAll(): void {
    this.freshness.applyAll();
    this.#tell({ all: true });
  }

  #setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    if (live) this.#whenLive();
    this.#onLive?.(live);
    this.#tell({ live });
  }

  async #run(): Promise<void> {
    let delay = this.#retryMs;
    while (!this.#closed) {
      const opened = await this.#once().catch(() => false);
      this.#setLive(false);
      if (this.#closed) break;
      delay = opened ? this.#retryMs : Math.min(delay * 2, 10_000);
      await new Promise<void>((r) => (this.#timer = setTimeout(r, delay)));
    }
  }

  /** One connection, until it ends; answers whether it opened. */
  async #once(): Promise<boolean> {
    this.#abort = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.#lastID !== undefined) headers['last-event-id'] = this.#lastID;
    const res = await this.#pool.request({ path: this.#path, method: 'GET', headers, signal: this.#abort.signal });
    if (res.statusCode !== 200 || !res.headers['content-type']?.toString().startsWith('text/event-stream')) {
      await res.body.dump();
      return false;
    }
    // Without an id to resume from, changes may have come since what is kept was read: all of it is stale.
    if (this.#lastID === undefined) this.#applyAll();
    const parser = createParser({
      // Each message's id, and the one a stream opens with (the platform's settled id): a reconnection
      // resumes after it.
      onId: (id) => (this.#lastID = id),
      onEvent: (m) => {
        if (m.event === 'reset') this.#applyAll();
        else if (m.event === 'change') this.#apply(m.data);
      },
    });
    this.#setLive(true);
    res.body.setEncoding('utf8');
    for await (const chunk of res.body) parser.feed(chunk as string);
    return true;
  }

  #apply(data: string): void {
    let message;
    try {
      message = changeMessageWire.parse(JSON.parse(data));
    } catch {
      // Not what the platform sends: whatever changed is unknown, so all of it is stale.
      this.#applyAll();
      return;
    }
    this.heard++;
    const change = {
      companyID: Number(message.companyID),
      eventID: message.eventID === '' ? null : Number(message.eventID),
    };
    this.freshness.apply(change);
    this.#tell({ change });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#abort?.abort();
    this.#setLive(false);
    await this.#pool.close().catch(() => {});
  }
}
