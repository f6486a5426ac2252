import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../db/schema.ts';
import { backoff, describe } from './log.ts';
import type { NetworkOptions, Transport } from './transport.ts';
import { decode } from './wire.ts';

// PostgreSQL LISTEN/NOTIFY, for a PostgreSQL store without Redis. LISTEN holds a connection for good,
// so it gets a client of its own rather than one of the store's pool; NOTIFY goes through the pool.
// node-postgres does not reconnect a client: a lost one is replaced, after a growing delay, and the
// bus reads the change log once the new one listens (NOTIFY keeps nothing for a listener that is away).

export interface PostgresTransportOptions extends NetworkOptions {
  /** The store's DATABASE_URL (its search_path included). */
  url: string;
  db: Kysely<DB>;
}

export function postgresTransport(o: PostgresTransportOptions): Transport {
  if (!/^[a-z0-9_]{1,63}$/.test(o.channel)) throw new Error('bus: PostgreSQL channel must be [a-z0-9_]{1,63}');
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let closed = false;
  let lost = false;
  let listened = false;

  function retry(): void {
    if (closed || timer) return;
    attempt++;
    timer = setTimeout(
      () => {
        timer = undefined;
        connecting = connect().finally(() => (connecting = undefined));
      },
      backoff(attempt, o.reconnectMs),
    );
  }

  let receive: (text: string) => void = () => {};
  let listening: () => void = () => {};

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({ connectionString: o.url, application_name: o.name, keepAlive: true });
    let gone = false;
    const drop = (err?: unknown) => {
      if (gone) return;
      gone = true;
      if (client === c) client = undefined;
      c.end().catch(() => {});
      if (closed) return;
      const why = err ? `: ${describe(err)}` : '';
      const state = lost ? 'still down' : listened ? 'lost' : 'failed';
      o.warn('pg-lost', `bus: PostgreSQL listen connection ${state}${why}; reconnecting`);
      lost = listened;
      retry();
    };
    c.on('error', drop);
    c.on('end', () => drop());
    c.on('notification', (n) => {
      if (n.channel === o.channel && n.payload !== undefined) receive(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${o.channel}"`);
    } catch (err) {
      return drop(err);
    }
    if (closed || gone) {
      gone = true;
      await c.end().catch(() => {});
      return;
    }
    client = c;
    attempt = 0;
    if (lost) o.info('bus: PostgreSQL listen connection back; catching up from the change log');
    lost = false;
    listened = true;
    listening();
  }

  return {
    name: 'postgres',
    // NOTIFY's payload must be shorter than 8000 bytes.
    limit: 7900,
    start(hooks) {
      receive = (text) => {
        const message = decode(text);
        if (message) hooks.receive(message);
        else o.warn('pg-bad', 'bus: ignored a notification that is not a change batch');
      };
      listening = () => hooks.listening();
      connecting = connect().finally(() => (connecting = undefined));
    },
    async send(text) {
      await sql`select pg_notify(${o.channel}, ${text})`.execute(o.db);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await connecting;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
