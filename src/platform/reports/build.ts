import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Config } from '../config.ts';
import { askerOf, type Caller } from '../auth/caller.ts';
import type { JobHandler, JobLogger, JobQueue } from '../jobs/queue.ts';
import { createDispatcher } from '../kernel/dispatch.ts';
import { REPORT_OPERATIONS } from '../catalog/reports.ts';
import { createCounter } from '../limits/counter.ts';
import { createStreamHub } from '../stream/hub.ts';
import { ApiError } from '../errors.ts';
import { columnsOf, XlsxStream } from '../excel.ts';
import { recordChange } from '../resources/change/log.ts';
import {
  downloadByID,
  dropChunks,
  expireFile,
  failBuild,
  finishBuild,
  insertChunk,
  setProgress,
  startBuild,
  type DownloadRow,
} from '../resources/download/repository.ts';
import { REPORT_EXPIRE_JOB, REPORT_JOB } from '../resources/download/operations/queue.ts';

// The report job (format=excel-daemon, docs/api/reports.md): reads the list the caller asked for, page
// by page (REPORT_PAGE_ROWS rows at a time) through the operation table as the person who asked — the
// same validation, the same rule, the same rows as their own call, so a report holds only what they
// may see — into a streaming xlsx writer whose output goes to the store in pieces of about 1 MB.
// Memory holds one page, the compressor's window and one piece, whatever the length of the list.
//
// The job may run again (a worker killed mid-report): each run is a new attempt that starts from the
// first row; the pieces of an attempt cut short are dropped when a later one finishes. A report is
// `ready` in the transaction that records its change (kind `download`, download.ready), so webhooks and
// push streams hear of it, and that adds the job that deletes its file when it expires.

const PIECE = 1 << 20;
const NO_LOG = { error() {}, warn() {}, info() {} };

/**
 * Writes what the zip writer gives out as numbered pieces of PIECE bytes (the last one shorter). What
 * comes out is copied into the piece being filled at once, so zlib's own chunks die young; a piece once
 * stored is filled again (the store has taken its bytes when the insert is done), so a report holds one
 * or two pieces, not one per MB of its file waiting for a full collection.
 */
class Pieces {
  private piece = new Uint8Array(PIECE);
  private filled = 0;
  /** Full pieces not yet stored. */
  private full: Uint8Array<ArrayBuffer>[] = [];
  /** Stored pieces, to fill again. */
  private spare: Uint8Array<ArrayBuffer>[] = [];
  private seq = 0;
  size = 0;

  private readonly db: Kysely<DB>;
  private readonly downloadID: number;
  private readonly attempt: number;

  constructor(db: Kysely<DB>, downloadID: number, attempt: number) {
    this.db = db;
    this.downloadID = downloadID;
    this.attempt = attempt;
  }

  take = (chunk: Uint8Array): void => {
    this.size += chunk.length;
    for (let at = 0; at < chunk.length;) {
      const n = Math.min(chunk.length - at, PIECE - this.filled);
      this.piece.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === PIECE) {
        this.full.push(this.piece);
        this.piece = this.spare.pop() ?? new Uint8Array(PIECE);
        this.filled = 0;
      }
    }
  };

  /** Stores the full pieces; with `all`, the last one too. */
  async flush(all: boolean): Promise<void> {
    const pieces = this.full;
    this.full = [];
    if (all && this.filled > 0) {
      pieces.push(this.piece.slice(0, this.filled));
      this.filled = 0;
    }
    for (const piece of pieces) {
      await insertChunk(this.db, this.downloadID, this.attempt, this.seq++, piece);
      if (piece.length === PIECE) this.spare.push(piece);
    }
  }
}

export interface ReportDeps {
  readonly db: Kysely<DB>;
  readonly config: Config;
  readonly queue: Pick<JobQueue, 'add'>;
  readonly logger: JobLogger;
}

/** The report jobs, by name: build one, delete an expired one's file. */
export function reportHandlers(d: ReportDeps): Record<string, JobHandler> {
  const streams = createStreamHub({ db: d.db, max: 1, heartbeatMs: 3_600_000 });
  /**
   * A dispatcher per list, over that one operation (loaded when a report of it first runs): a worker
   * holds the operations it ran reports of, not the whole table.
   */
  const readers = new Map<string, Promise<ReturnType<typeof createDispatcher>>>();
  const readerOf = (name: string) => {
    let reader = readers.get(name);
    if (!reader) {
      const load = REPORT_OPERATIONS[name];
      if (!load) throw new ApiError(404, `operation ${name} does not exist`);
      reader = load().then((op) =>
        createDispatcher({
          db: d.db,
          config: d.config,
          counter: createCounter(),
          jobs: { add: async () => false },
          operations: [op],
          streams,
          log: NO_LOG,
        }),
      );
      readers.set(name, reader);
    }
    return reader;
  };
  const pageRows = d.config.REPORT_PAGE_ROWS;

  /**
   * One pass over the list into a new file. `columns`: those of the header, when known (a second pass);
   * else the first page's keys. Answers the columns of every row read when a later page had keys the
   * header lacks (the file is then built again with them: the same columns format=excel would have),
   * 'superseded' when another attempt took over, or the rows written.
   */
  async function pass(
    row: DownloadRow,
    attempt: number,
    caller: Caller,
    known: string[] | undefined,
  ): Promise<{ rows: number; size: number } | { columns: string[] } | 'superseded'> {
    const query = JSON.parse(row.params) as Record<string, string>;
    const call = {
      name: row.type,
      method: 'GET',
      rawQuery: '',
      query,
      body: undefined,
      authorization: undefined,
      clientIp: '127.0.0.1',
      as: caller,
    };
    const reader = await readerOf(row.type);
    const pieces = new Pieces(d.db, row.downloadID, attempt);
    const columns = known ? [...known] : [];
    let writer: XlsxStream | undefined;
    let grew = false;
    let after: unknown;
    for (let offset = 0; ;) {
      // By key when the list can (the page after the last row's key), else by offset.
      const { rows, next } = await reader.reportRows(call, pageRows, offset, after);
      after = next;
      if (!writer) {
        if (!known) columnsOf(rows, columns);
        writer = new XlsxStream([...columns], pieces.take, row.type);
      } else if (!known) {
        const before = columns.length;
        columnsOf(rows, columns);
        grew ||= columns.length > before;
      }
      await writer.write(rows);
      offset += rows.length;
      await pieces.flush(false);
      if (!(await setProgress(d.db, row.downloadID, attempt, offset))) return 'superseded';
      if (rows.length < pageRows) break;
    }
    await writer.end();
    await pieces.flush(true);
    return grew ? { columns } : { rows: writer.rows, size: pieces.size };
  }

  const build: JobHandler = async ({ downloadID }: { downloadID: number }) => {
    const attempt = await startBuild(d.db, downloadID);
    if (attempt === undefined) return;
    const row = (await downloadByID(d.db, downloadID))!;
    const caller = await askerOf(d.db, row);
    const now = () => Math.floor(Date.now() / 1000);
    try {
      let out = await pass(row, attempt, caller, undefined);
      if (typeof out === 'object' && 'columns' in out) {
        await dropChunks(d.db, downloadID, attempt);
        out = await pass(row, attempt, caller, out.columns);
      }
      if (out === 'superseded' || 'columns' in out) return;
      const done = out;
      const finished = now();
      const expires = finished + d.config.REPORT_TTL_SECONDS;
      await d.db.transaction().execute(async (trx) => {
        if (!(await finishBuild(trx, downloadID, attempt, { ...done, finished, expires }))) return;
        await recordChange(trx, {
          operation: 'download.ready',
          kind: 'download',
          companyID: row.companyID,
          eventID: row.eventID || null,
          objectID: downloadID,
          ids: { downloadID, companyID: row.companyID, ...(row.eventID ? { eventID: row.eventID } : {}) },
        });
        await d.queue.add(trx, REPORT_EXPIRE_JOB, { downloadID }, { runAt: new Date(expires * 1000) });
      });
      d.logger.info({ downloadID, rows: done.rows, size: done.size }, 'report ready');
    } catch (err) {
      // The list refused the person who asked (rights lost, event gone) or cannot be a spreadsheet (too
      // many rows): no retry will do better. Anything else (the store) is retried by the queue.
      if (!(err instanceof ApiError) && !(err instanceof RangeError)) throw err;
      const why = err instanceof ApiError ? `${err.status} ${err.message}` : err.message;
      await d.db.transaction().execute(async (trx) => {
        if (!(await failBuild(trx, downloadID, attempt, why, now()))) return;
        await recordChange(trx, {
          operation: 'download.fail',
          kind: 'download',
          companyID: row.companyID,
          eventID: row.eventID || null,
          objectID: downloadID,
          ids: { downloadID, companyID: row.companyID },
        });
      });
    }
  };

  return {
    [REPORT_JOB]: build,
    [REPORT_EXPIRE_JOB]: async ({ downloadID }: { downloadID: number }) =>
      expireFile(d.db, downloadID, Math.floor(Date.now() / 1000)),
  };
}
