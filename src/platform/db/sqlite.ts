import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely dialect over Node's built-in node:sqlite (no native addon to build).
 *
 * One connection, handed out under a mutex: node:sqlite is synchronous, so a second
 * connection would only add SQLITE_BUSY retries. Write transactions start with
 * BEGIN IMMEDIATE so the write lock is taken up front (a deferred transaction that
 * upgrades later is what produces SQLITE_BUSY when another process, such as the CLI,
 * writes at the same time; busy_timeout then waits instead of failing).
 */
export class NodeSqliteDialect implements Dialect {
  readonly #path: string;
  readonly #checkpointMs: number;
  readonly #report: (line: string) => void;
  /**
   * `checkpointMs`: above 0, checkpoints run on a thread of their own every that many ms
   * (checkpointer.ts); 0 leaves them to SQLite, in the writing thread (what short-lived commands want).
   * `report`: where the line saying that thread stopped goes (the process's stderr by default).
   */
  constructor(
    path: string,
    { checkpointMs = 0, report = console.error }: { checkpointMs?: number; report?: (line: string) => void } = {},
  ) {
    this.#path = path;
    this.#checkpointMs = checkpointMs;
    this.#report = report;
  }
  createDriver(): Driver {
    return new NodeSqliteDriver(this.#path, this.#checkpointMs, this.#report);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
}

/**
 * The write-ahead log's size (pages) at which the writing thread checkpoints itself while a checkpointer
 * runs. The checkpointer copies the log as it grows, but the log starts again from its beginning only
 * after a checkpoint that found nothing newer than it copied, which a steady stream of writes never
 * leaves: this one, finding almost everything copied, mostly waits for the disk, once every ~40 MB of log
 * rather than every 4 MB (SQLite's 1,000 pages). It also bounds the log if the checkpointer stops.
 */
const LOG_PAGES_WITH_CHECKPOINTER = 10_000;

class NodeSqliteDriver implements Driver {
  readonly #path: string;
  readonly #checkpointMs: number;
  readonly #report: (line: string) => void;
  readonly #mutex = new Mutex();
  #db?: DatabaseSync;
  #connection?: NodeSqliteConnection;
  #release?: () => void;
  #checkpointer?: Worker;

  constructor(path: string, checkpointMs: number, report: (line: string) => void) {
    this.#path = path;
    this.#checkpointMs = checkpointMs;
    this.#report = report;
  }

  async init(): Promise<void> {
    const db = new DatabaseSync(this.#path, { timeout: 10_000 });
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    this.#db = db;
    this.#connection = new NodeSqliteConnection(db);
    // An in-memory or temporary database has no file another thread could open.
    if (this.#checkpointMs > 0 && this.#path !== ':memory:' && this.#path !== '') this.#startCheckpointer(db);
  }

  #startCheckpointer(db: DatabaseSync) {
    db.exec(`PRAGMA wal_autocheckpoint = ${LOG_PAGES_WITH_CHECKPOINTER}`);
    const worker = new Worker(new URL('./checkpointer.ts', import.meta.url), {
      workerData: { path: this.#path, everyMs: this.#checkpointMs, logPages: LOG_PAGES_WITH_CHECKPOINTER },
    });
    // It never keeps the process alive, and one that fails leaves the checkpoints to the threshold above
    // rather than taking the process with it, and says so: the operator sees why the log grows larger.
    worker.unref();
    worker.on('error', (err) => this.#report(checkpointerStopped(err)));
    worker.once('exit', () => (this.#checkpointer = undefined));
    this.#checkpointer = worker;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#mutex.lock();
    return this.#connection!;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const begin = settings.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    const worker = this.#checkpointer;
    if (worker) {
      // Its round ends and it closes its connection before this one closes.
      const exited = new Promise((r) => worker.once('exit', r));
      worker.postMessage('stop');
      await exited;
    }
    this.#db?.close();
  }
}

/** The one line that says the checkpoint thread stopped (its error's first line: no stack). */
const checkpointerStopped = (err: unknown): string =>
  `sqlite: the checkpoint thread stopped (${String(err instanceof Error ? err.message : err).split('\n')[0]}); ` +
  `the writing thread checkpoints past ${LOG_PAGES_WITH_CHECKPOINTER} log pages`;

const toSqlite = (v: unknown): SQLInputValue =>
  v === undefined ? null : typeof v === 'boolean' ? Number(v) : (v as SQLInputValue);

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  // Prepared statements are reused: parsing SQL is a measurable part of a cheap read.
  readonly #statements = new LRUCache<string, { stmt: StatementSync; reader: boolean }>({ max: 1000 });

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #prepare(sql: string) {
    let entry = this.#statements.get(sql);
    if (!entry) {
      const stmt = this.#db.prepare(sql);
      entry = { stmt, reader: stmt.columns().length > 0 };
      this.#statements.set(sql, entry);
    }
    return entry;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const params = compiled.parameters.map(toSqlite);
    if (compiled.parameters.length === 0 && /^(begin|commit|rollback|savepoint|release)/i.test(compiled.sql)) {
      this.#db.exec(compiled.sql);
      return { rows: [] };
    }
    const { stmt, reader } = this.#prepare(compiled.sql);
    if (reader) return { rows: stmt.all(...params) as R[] };
    const { changes, lastInsertRowid } = stmt.run(...params);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the node:sqlite driver');
  }
}
