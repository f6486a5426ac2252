import type { Message } from './wire.ts';

/** What a transport tells its bus. */
export interface Hooks {
  /** A message from any process on the same store (this one's own included). */
  receive(message: Message): void;
  /** Listening again after a (re)connection: whatever was published before may have been missed. */
  listening(): void;
}

/** What carries messages between the processes of one store: memory, PostgreSQL or Redis. */
export interface Transport {
  readonly name: 'memory' | 'postgres' | 'redis';
  /** The largest message it carries, in bytes; a bigger batch goes as its id range. */
  readonly limit: number;
  /** Connects and listens, retrying in the background; never rejects. */
  start(hooks: Hooks): void;
  /** Sends a message to every listening process; rejects when it could not. */
  send(text: string): Promise<void>;
  close(): Promise<void>;
}

/** What every networked transport is given by its bus (bus.ts builds one for Redis or PostgreSQL). */
export interface NetworkOptions {
  /** The store's channel: [a-z0-9_] only (PostgreSQL writes it into LISTEN as an identifier). */
  channel: string;
  /** Names this process's connection, so an operator sees whose it is (Redis CLIENT LIST, pg_stat_activity). */
  name: string;
  warn: (key: string, line: string) => void;
  info: (line: string) => void;
  /** First reconnect delay (doubling up to 5 s). */
  reconnectMs: number;
}
