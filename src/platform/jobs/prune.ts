import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { pruneChanges } from '../resources/change/log.ts';
import { pruneEndedSubscriptions } from '../resources/webpush/repository.ts';
import { pruneCancelledCodes } from '../resources/checklog/repository.ts';
import type { JobHandler, JobQueue } from './queue.ts';

// change.prune: the change log keeps a window (CHANGE_LOG_DAYS); older rows are deleted once an hour,
// and so are the Web Push subscriptions of events that have ended (docs/push.md "Web Push") and the
// cancelled tickets' codes of events that ended a week ago (docs/api/checkin.md).
// Each worker adds the job for the next whole hour, keyed by that hour: every worker adds the same job
// during the hour before it is due, so the key lets one through, and the job runs once per hour however
// many workers there are. Deleting old rows twice would be harmless anyway.

const HOUR = 3_600_000;

export const PRUNE_JOB = 'change.prune';

/** The handler: forgets changes older than `days`, and what ended events no longer need. */
export function pruneHandler(db: Kysely<DB>, days: number): JobHandler {
  return async () => {
    const now = Math.floor(Date.now() / 1000);
    await pruneChanges(db, Date.now() - days * 24 * HOUR);
    await pruneEndedSubscriptions(db, now);
    await pruneCancelledCodes(db, now);
  };
}

/** Adds the next hour's prune now and after every hour boundary; answers a function that stops it. */
export function schedulePrune(queue: JobQueue, db: Kysely<DB>, onError: (err: unknown) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    const runAt = new Date((Math.floor(Date.now() / HOUR) + 1) * HOUR);
    queue
      .add(db, PRUNE_JOB, {}, { key: runAt.toISOString().slice(0, 13), runAt })
      .catch(onError)
      .finally(() => {
        // A little past the boundary, so the next hour is the one after it.
        if (!stopped) timer = setTimeout(next, runAt.getTime() - Date.now() + 1000).unref();
      });
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
