import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Config } from '../config.ts';
import { askerOf } from '../auth/caller.ts';
import type { JobHandler, JobLogger, JobQueue, RunningJob } from '../jobs/queue.ts';
import { createDispatcher } from '../kernel/dispatch.ts';
import { createCounter } from '../limits/counter.ts';
import { createStreamHub } from '../stream/hub.ts';
import { ApiError } from '../errors.ts';
import { eventAccess } from '../auth/access.ts';
import { LEVEL } from '../auth/levels.ts';
import { recordChange } from '../resources/change/log.ts';
import {
  daemonByID,
  finishDaemon,
  itemsOf,
  markApplied,
  markFailed,
  startDaemon,
  type DaemonRow,
} from '../resources/daemon/repository.ts';
import { DAEMON_JOB, callOf, targetOf } from '../resources/daemon/targets.ts';

// The bulk daemon job (daemon.bulk, docs/api/daemons.md), built as the report job is (reports/build.ts):
// each item is the target's single operation, called through the operation table as the person who
// asked, with the scope of the token they asked with — its validation, rule, checks, change and
// webhooks, nothing of its own — and the daemon's progress moved on in the same transaction as the
// item's write (dispatcher.runItem). A refused item (any `NNN message` of the operation) is recorded
// with its line and the daemon goes on: every target is per-item.
//
// A run processes at most DAEMON_BATCH items, then adds the next run as a job of its own, so a run stays
// far shorter than a job's lease. A worker killed mid-run leaves the job to run again after its lease;
// it resumes at `done`, the first item not processed. An item whose write committed moved `done` with it,
// so it is never applied twice; two runs at once (a lease ran out while a run was still going) meet on
// `done`'s compare-and-set, and the one that loses rolls its item back and stops.

const NO_LOG = { error() {}, warn() {}, info() {} };

/** Thrown inside an item's transaction when another run processed the item first: rolls the write back. */
class Superseded extends Error {}

export interface DaemonDeps {
  readonly db: Kysely<DB>;
  readonly config: Config;
  /** Where item writes add their jobs (an e-mail's send) and a run adds the next. */
  readonly queue: Pick<JobQueue, 'add'>;
  readonly logger: JobLogger;
}

const now = () => Math.floor(Date.now() / 1000);

export function daemonHandlers(d: DaemonDeps): Record<string, JobHandler> {
  const streams = createStreamHub({ db: d.db, max: 1, heartbeatMs: 3_600_000 });
  // The operation table is loaded when a daemon first runs, not when the worker starts (a worker that
  // never runs one does not hold it: docs/api/reports.md "Memory").
  let dispatcher: Promise<ReturnType<typeof createDispatcher>> | undefined;
  const dispatcherOf = () =>
    (dispatcher ??= import('../catalog/index.ts').then(({ operations }) =>
      createDispatcher({
        db: d.db,
        config: d.config,
        counter: createCounter(),
        jobs: d.queue,
        operations,
        streams,
        log: NO_LOG,
      }),
    ));

  /** The daemon's state change, recorded with it (kind `daemon`: webhooks and change.subscribe hear it). */
  async function settle(row: DaemonRow, state: 'done' | 'failed', error = ''): Promise<void> {
    await d.db.transaction().execute(async (trx) => {
      if (!(await finishDaemon(trx, row.daemonID, state, now(), error))) return;
      await recordChange(trx, changeOf(row, state === 'done' ? 'daemon.done' : 'daemon.fail'));
    });
    d.logger.info({ daemonID: row.daemonID, state, error }, 'daemon finished');
  }

  const run: JobHandler = async ({ daemonID }: { daemonID: number }, job: RunningJob) => {
    let row = await daemonByID(d.db, daemonID);
    if (!row || row.state === 'done' || row.state === 'failed') return;
    if (row.state === 'queued') {
      await d.db.transaction().execute(async (trx) => {
        if (await startDaemon(trx, daemonID, now())) await recordChange(trx, changeOf(row!, 'daemon.start'));
      });
      row = (await daemonByID(d.db, daemonID))!;
    }
    const caller = await askerOf(d.db, { ...row, targetID: row.scopeTargetID });
    // The asker must still hold daemon.bulk's rule on the event: else nothing more is run, with why.
    const access = await eventAccess(d.db, caller, row.eventID);
    if (!access || !access.related) return settle(row, 'failed', '404 event not found');
    if ((access.level & LEVEL.ADMIN) === 0) return settle(row, 'failed', '403 permission level too low');

    const target = targetOf(row.target)!;
    const form = target.resources[row.resourceType]!;
    const extra = JSON.parse(row.extra) as Record<string, string>;
    const items = itemsOf(row);
    const end = Math.min(items.length, row.done + d.config.DAEMON_BATCH);
    for (let item = row.done; item < end; item++) {
      const { query, body } = callOf(target, form, { eventID: row.eventID, targetID: row.targetID }, extra, items[item]); // prettier-ignore
      const call = {
        name: target.name,
        method: target.method,
        rawQuery: '',
        query,
        body,
        authorization: undefined,
        clientIp: '127.0.0.1',
        as: caller,
      };
      try {
        await (
          await dispatcherOf()
        ).runItem(call, row.eventID, async (trx) => {
          if (!(await markApplied(trx, daemonID, item))) throw new Superseded();
        });
      } catch (err) {
        if (err instanceof Superseded) return;
        let line: string;
        if (err instanceof ApiError) line = `${err.status} ${err.message}`;
        else if (job.attempt < d.config.JOBS_MAX_ATTEMPTS)
          throw err; // the store: the queue retries the run
        else {
          // The same item failed every attempt with no answer of its own: recorded as the 500 a call gets.
          d.logger.error({ daemonID, item, err }, 'daemon item failed');
          line = '500 internal error';
        }
        if (!(await markFailed(d.db, daemonID, item, line))) return;
      }
    }
    if (end < items.length) {
      await d.queue.add(d.db, DAEMON_JOB, { daemonID });
      return;
    }
    await settle(row, 'done');
  };

  return { [DAEMON_JOB]: run };
}

function changeOf(row: DaemonRow, operation: string) {
  return {
    operation,
    kind: 'daemon',
    companyID: row.companyID,
    eventID: row.eventID,
    objectID: row.daemonID,
    ids: { daemonID: row.daemonID, eventID: row.eventID, companyID: row.companyID },
  };
}
