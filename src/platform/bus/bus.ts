import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { lastChangeID, type ChangeRow } from '../resources/change/log.ts';
import { Delivery } from './delivery.ts';
import { describe, silentLogger, throttled, type BusLogger } from './log.ts';
import { memoryTransport } from './memory.ts';
import { postgresTransport } from './postgres.ts';
import { redisTransport } from './redis.ts';
import type { Transport } from './transport.ts';
import { encode } from './wire.ts';

// The bus (issue 11, item 2): committed changes reach every process of a store within milliseconds.
// The dispatcher publishes a write's change rows right after its commit; every process's subscribers
// (the publisher's own included) get each change once. The change log stays the truth: the bus reads
// it after a reconnection and on a slow poll, so a change is never lost to a blip, only late.

export type { BusLogger } from './log.ts';

export interface ChangeBus {
  /** What carries the changes between processes. */
  readonly transport: Transport['name'];
  /**
   * A change id every change above which the subscribers get (some perhaps later, from the log): where
   * a reader that followed them since can resume from the log without missing one.
   */
  settled(): number;
  /** Sends committed change rows to every process; never rejects (a failure is logged; the poll covers it). */
  publish(changes: readonly ChangeRow[]): Promise<void>;
  /** Calls `listener` with each change, once, from now on; answers its removal. */
  subscribe(listener: (change: ChangeRow) => void): () => void;
  /** Stops listening and polling; call it before the store is closed. */
  close(): Promise<void>;
}

export interface BusOptions {
  db: Kysely<DB>;
  kind: 'sqlite' | 'postgres';
  /** The store's DATABASE_URL: a PostgreSQL store without Redis listens on a connection of its own. */
  databaseUrl?: string;
  /** Redis pub/sub carries the changes when set (REDIS_URL). */
  redisUrl?: string;
  logger?: BusLogger;
  /** How often the change log is read for changes whose publish was lost (BUS_POLL_MS). */
  pollMs?: number;
  /** Names this process's connections (Redis CLIENT LIST, PostgreSQL application_name). */
  name?: string;
  /** First reconnect delay; doubles up to 5 s. */
  reconnectMs?: number;
  /** How long createBus waits for the first connection before going on (retrying in the background). */
  connectWaitMs?: number;
  /** Most delivered ids remembered against duplicates. */
  maxSeen?: number;
}

/** The channel of a store: processes of one store share it; other stores on the same server do not. */
async function channelOf(db: Kysely<DB>, kind: BusOptions['kind']): Promise<string> {
  let identity: string;
  if (kind === 'postgres') {
    const { rows } = await sql<{ d: string; s: string }>`select current_database() as d, current_schema() as s`.execute(
      db,
    );
    identity = `postgres:${rows[0].d}/${rows[0].s}`;
  } else {
    const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db);
    // An in-memory database is seen by this connection alone.
    identity = `sqlite:${rows[0]?.file || randomUUID()}`;
  }
  // Hashed: a fixed length of identifier characters, valid for LISTEN and Redis alike.
  return `podium_change_${createHash('sha256').update(identity).digest('hex').slice(0, 24)}`;
}

function transportFor(o: BusOptions, channel: string, warn: (key: string, line: string) => void): Transport {
  const logger = o.logger ?? silentLogger;
  const common = {
    channel,
    name: o.name ?? `podium-bus-${process.pid}`,
    warn,
    info: (line: string) => logger.info(line),
    reconnectMs: o.reconnectMs ?? 100,
  };
  if (o.redisUrl) return redisTransport({ ...common, url: o.redisUrl });
  if (o.kind === 'postgres') {
    if (!o.databaseUrl) throw new Error('bus: a PostgreSQL store without Redis needs its databaseUrl to LISTEN');
    return postgresTransport({ ...common, url: o.databaseUrl, db: o.db });
  }
  return memoryTransport(channel);
}

/**
 * The bus of this process: Redis pub/sub when `redisUrl` is set, else PostgreSQL LISTEN/NOTIFY on a
 * PostgreSQL store, else in-process on SQLite. Subscribers get changes committed from now on.
 */
export async function createBus(o: BusOptions): Promise<ChangeBus> {
  const warn = throttled(o.logger ?? silentLogger);
  const transport = transportFor(o, await channelOf(o.db, o.kind), warn);
  const delivery = new Delivery({ db: o.db, warn, pollMs: o.pollMs ?? 5000, maxSeen: o.maxSeen });

  // Listen first, then read where the log ends: a change committed in between arrives live, and one
  // committed before is history this process need not hear.
  let started = false;
  let firstListening = () => {};
  const listening = new Promise<boolean>((resolve) => (firstListening = () => resolve(true)));
  transport.start({
    receive: (m) => ('rows' in m ? delivery.live(m.rows) : void delivery.range(m.from, m.to)),
    listening: () => (started ? void delivery.sweep() : firstListening()),
  });
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), o.connectWaitMs ?? 3000)));
  const connected = await Promise.race([listening, waited]);
  clearTimeout(timer);
  if (!connected) warn('start', `bus: ${transport.name} not listening yet; retrying in the background`);
  try {
    delivery.start(await lastChangeID(o.db));
  } catch (err) {
    await transport.close();
    throw err;
  }
  started = true;

  let closing: Promise<void> | undefined;
  return {
    transport: transport.name,
    settled: () => delivery.settled,
    async publish(changes) {
      if (closing || changes.length === 0) return;
      const rows = [...changes].sort((a, b) => a.changeID - b.changeID);
      // This process's subscribers first and at once; the echo from the transport is a duplicate.
      delivery.live(rows);
      try {
        await transport.send(encode(rows, transport.limit));
      } catch (err) {
        warn('publish', `bus: publish failed, other processes read it from the change log: ${describe(err)}`);
      }
    },
    subscribe: (listener) => delivery.subscribe(listener),
    close() {
      closing ??= delivery.close().then(() => transport.close());
      return closing;
    },
  };
}
