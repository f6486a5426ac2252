import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { changesSince, lastChangeID, oldestChangeID, type ChangeRow } from '../resources/change/log.ts';
import { ApiError } from '../errors.ts';

// Open answers (Server-Sent Events) fed by the change log (issue 11 item 6, issue 13): every process
// hears every committed change through the bus and hands it to the streams open on it. A stream shows
// its caller a view of each change (what it may hear, as what message); a view is computed once per
// change for all the streams that share it. A client that reconnects names the last id it had
// (Last-Event-ID) and gets what it missed from the log; past the log's window, one `reset` message.
// Memory is bounded per connection (a client that stops reading is closed and replays when it comes
// back) and in all (STREAM_MAX open streams). A stream let in on something that can run out or be
// taken away (a grant, a token: StreamGuard) ends when it does: expiry on the one heartbeat timer all
// streams share, revocation re-checked after the changes that may have made it.

/** One message of a stream: `id:`, `event:` and a one-line JSON `data:`. */
export interface StreamMessage {
  readonly id: number;
  readonly event: string;
  /** Strings only, like every answer of the API. */
  readonly data: Readonly<Record<string, string>>;
}

/** A view's answer to a change that ends its streams (push.subscribe: the event is no longer theirs to hear). */
export const CLOSE = Symbol('close');
export type ViewAnswer = StreamMessage | undefined | typeof CLOSE;

/**
 * What the callers of one stream operation hear of each change; `name` tells views apart (one per
 * audience): streams opened with the same name share the view of the first.
 */
export interface StreamView {
  readonly name: string;
  /** The message of a change for this view's streams, nothing, or CLOSE (they reconnect and are asked again). */
  message(change: ChangeRow): ViewAnswer | Promise<ViewAnswer>;
  /**
   * What this caller's right to hear rests on when it can run out or be taken away (a grant, a token):
   * the hub keeps it with the stream (not with the view its group shares) and ends the stream when it
   * no longer holds. The client reconnects and is asked again, missing nothing (Last-Event-ID).
   */
  readonly guard?: StreamGuard;
}

/** A stream's right to hear that can end while it is open (StreamView.guard). */
export interface StreamGuard {
  /** When it runs out (Unix ms): the stream ends then, found by the heartbeat timer all streams share. */
  readonly expiresAt: number;
  /** Whether `change` may have taken it away (a token revoked, a registration removed): then holds() is asked. */
  concerns(change: ChangeRow): boolean;
  /** Whether it still holds; the stream's messages wait meanwhile. */
  holds(): Promise<boolean>;
}

/** Where a stream's text goes: the HTTP response. */
export interface StreamSink {
  write(text: string): void;
  end(): void;
  /** Bytes written and not yet sent. */
  readonly backlog: number;
}

export interface StreamHubOptions {
  readonly db: Kysely<DB>;
  /** Streams open at once on this process (STREAM_MAX); one more is a 503. */
  readonly max: number;
  /** A comment line every so often keeps proxies from closing a quiet stream (STREAM_HEARTBEAT_MS). */
  readonly heartbeatMs: number;
  /** A stream whose client has this many bytes unread is closed (default 256 KiB). */
  readonly maxBacklog?: number;
  /** Most changes replayed to a reconnecting client; more missed → `reset` (default 10,000). */
  readonly maxReplay?: number;
}

/** How long a reconnected client's replayed ids are kept against the same changes coming live. */
const REPLAYED_KEPT_MS = 30_000;

/** The text of a message as it goes out. */
export const sseText = (m: StreamMessage): string =>
  `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;

/** Tells a client it missed more than can be replayed: reload everything, then go on from `id`. */
const resetText = (id: number) => `id: ${id}\nevent: reset\ndata: {}\n\n`;

interface Subscriber {
  readonly sink: StreamSink;
  /** The client's address, for the cap per address (STREAM_MAX_PER_ADDRESS). */
  readonly from: string;
  readonly guard: StreamGuard | undefined;
  /** What holds its live messages back: its replay, re-checks of its guard. Sent in order when none is left. */
  held: number;
  /** Live messages that came while held, sent after (those the replay sent, not again). */
  pending: StreamMessage[] | undefined;
  /** The ids the replay sent. Live messages are never filtered by id order: on PostgreSQL a change with a
   * lower id may commit after one with a higher id, and the bus hands each over once, as it commits. */
  replayed: Set<number> | undefined;
}

interface ViewGroup {
  readonly view: StreamView;
  readonly subscribers: Set<Subscriber>;
  /** The views of changes are made in order: each waits for the one before. */
  chain: Promise<void>;
}

export interface StreamHub {
  /** A committed change (from the bus): every open stream hears its view of it. */
  publish(change: ChangeRow): void;
  /**
   * Opens a stream on `sink` after the change `lastEventID` (undefined: from now on) for the client at
   * address `from`; answers its close. Throws a 503 when STREAM_MAX streams are open.
   */
  open(view: StreamView, lastEventID: number | undefined, sink: StreamSink, from?: string): () => void;
  /** Streams open now. */
  readonly size: number;
  /** Streams open now from one client address. */
  openFrom(address: string): number;
  /** Ends every stream (shutdown): clients reconnect to another process with their Last-Event-ID. */
  close(): void;
  /**
   * The id a stream opened without one is given (the bus's settled id: every change above it reaches
   * `publish`), so that its client resumes from there if the stream drops. Without it, none is given.
   */
  settleWith(settled: () => number): void;
}

export function createStreamHub(o: StreamHubOptions): StreamHub {
  const maxBacklog = o.maxBacklog ?? 256 * 1024;
  const maxReplay = o.maxReplay ?? 10_000;
  const groups = new Map<string, ViewGroup>();
  let settled: (() => number) | undefined;
  /** Open streams by client address (only addresses with at least one). */
  const perAddress = new Map<string, number>();
  let size = 0;
  let closed = false;

  /** The open streams with a guard, and their groups: the only ones a change may end on its own. */
  const guarded = new Map<Subscriber, ViewGroup>();

  // One timer for every stream: the heartbeat, and the end of those whose right to hear ran out.
  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const [s, group] of guarded) if (s.guard!.expiresAt <= now) drop(group, s);
    for (const group of groups.values()) for (const s of group.subscribers) send(group, s, ': \n\n');
  }, o.heartbeatMs);
  heartbeat.unref();

  function hold(s: Subscriber): void {
    if (s.held++ === 0) s.pending = [];
  }

  /** One reason less to hold a stream's messages; the last sends what waited, in order. */
  function release(group: ViewGroup, s: Subscriber): void {
    if (--s.held > 0) return;
    const pending = s.pending ?? [];
    s.pending = undefined;
    if (group.subscribers.has(s)) for (const m of pending) offer(group, s, m);
  }

  /** Asks a stream's guard again after a change that concerns it; ends the stream unless it holds. */
  function recheck(group: ViewGroup, s: Subscriber): void {
    hold(s);
    s.guard!.holds()
      .catch(() => false) // the store unreachable: the client reconnects and is asked again
      .then((holds) => {
        if (!holds) drop(group, s);
        release(group, s);
      });
  }

  function drop(group: ViewGroup, s: Subscriber): void {
    if (!group.subscribers.delete(s)) return;
    guarded.delete(s);
    size--;
    const n = (perAddress.get(s.from) ?? 1) - 1;
    if (n > 0) perAddress.set(s.from, n);
    else perAddress.delete(s.from);
    if (group.subscribers.size === 0 && groups.get(group.view.name) === group) groups.delete(group.view.name);
    s.sink.end();
  }

  /** Writes to one client; one that stopped reading is let go (it replays what it missed when it returns). */
  function send(group: ViewGroup, s: Subscriber, text: string): void {
    s.sink.write(text);
    if (s.sink.backlog > maxBacklog) drop(group, s);
  }

  /** A message to one client: held while its replay or a re-check runs, then sent unless the replay sent it. */
  function offer(group: ViewGroup, s: Subscriber, m: StreamMessage): void {
    if (s.held > 0) s.pending!.push(m);
    else if (!s.replayed?.has(m.id)) send(group, s, sseText(m));
  }

  async function replay(group: ViewGroup, s: Subscriber, after: number): Promise<void> {
    const oldest = await oldestChangeID(o.db);
    let missed: ChangeRow[] = [];
    // Ids below the oldest kept were pruned: what the client missed cannot be told.
    let gap = oldest !== undefined && after < oldest - 1;
    if (!gap) {
      missed = await changesSince(o.db, after, maxReplay + 1);
      gap = missed.length > maxReplay;
    }
    if (gap) {
      send(group, s, resetText(await lastChangeID(o.db)));
      return;
    }
    const replayed = new Set<number>();
    s.replayed = replayed;
    for (const change of missed) {
      if (!group.subscribers.has(s)) return;
      const m = await group.view.message(change);
      if (m === CLOSE) return drop(group, s);
      replayed.add(change.changeID);
      if (m) send(group, s, sseText(m));
    }
  }

  return {
    get size() {
      return size;
    },
    publish(change) {
      for (const [s, group] of guarded) if (s.guard!.concerns(change)) recheck(group, s);
      for (const group of groups.values()) {
        group.chain = group.chain
          .then(() => group.view.message(change))
          .then(
            (m) => {
              if (m === CLOSE) for (const s of [...group.subscribers]) drop(group, s);
              else if (m) for (const s of group.subscribers) offer(group, s, m);
            },
            () => {}, // a view that failed (the store gone) skips this change; a reconnect replays it
          );
      }
    },
    openFrom(address) {
      return perAddress.get(address) ?? 0;
    },
    open(view, lastEventID, sink, from = '') {
      if (closed) throw new ApiError(503, 'the server is shutting down, connect again');
      if (size >= o.max) throw new ApiError(503, 'too many open streams, try again shortly', { 'Retry-After': '5' });
      let group = groups.get(view.name);
      if (!group) groups.set(view.name, (group = { view, subscribers: new Set(), chain: Promise.resolve() }));
      const s: Subscriber = { sink, from, guard: view.guard, held: 0, pending: undefined, replayed: undefined };
      group.subscribers.add(s);
      if (s.guard) guarded.set(s, group);
      size++;
      perAddress.set(from, (perAddress.get(from) ?? 0) + 1);
      // The reconnection delay the client uses (EventSource's `retry`), and the stream is open.
      sink.write('retry: 2000\n: open\n\n');
      if (lastEventID === undefined) {
        // A client that came without an id is given one (`id:` alone, no message: it sets EventSource's
        // lastEventId): if the stream drops, it comes back with it and hears what it missed instead of
        // starting over. Not the log's newest id: a change below that may not have come through the bus
        // yet (a lost publish, a PostgreSQL commit out of id order), and the replay would skip it. The
        // settled id is below every change still to come, so a replay may repeat some, never miss one.
        if (settled) send(group, s, `id: ${settled()}\n\n`);
      } else {
        const g = group;
        hold(s);
        void replay(g, s, lastEventID)
          .catch(() => {
            // The log could not be read: the client comes back and asks again.
            drop(g, s);
          })
          .finally(() => {
            release(g, s);
            // A change the replay read from the log may still come through the bus a little later: the
            // replayed ids are kept a while to send it once, then let go (they are bounded by maxReplay).
            setTimeout(() => (s.replayed = undefined), REPLAYED_KEPT_MS).unref();
          });
      }
      return () => drop(group, s);
    },
    settleWith(fn) {
      settled = fn;
    },
    close() {
      closed = true;
      clearInterval(heartbeat);
      for (const group of [...groups.values()]) for (const s of [...group.subscribers]) drop(group, s);
    },
  };
}
