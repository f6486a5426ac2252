import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { SessionChange } from '../program/snapshot.ts';
import { NOTIFYING_KINDS } from './notice.ts';
import { anySubscriber } from './repository.ts';
import { heardOutside, NOTIFY_JOB } from './send.ts';

/**
 * After a program write recorded `version` (program/watch.ts, in the write's transaction): when it moved,
 * re-roomed or removed a session some browser saved, adds the push.notify job of that version, so the
 * job exists if and only if the write committed. Most writes touch no saved session: one indexed read.
 */
export async function queuePushNotices(
  trx: Kysely<DB>,
  jobs: Pick<JobQueue, 'add'>,
  eventID: number,
  version: number,
  changes: readonly SessionChange[],
): Promise<void> {
  const ids = changes.filter((c) => c.kinds.some((k) => NOTIFYING_KINDS.has(k))).map((c) => c.activityID);
  if (!(await anySubscriber(trx, eventID, ids))) return;
  // Judged as the write commits, not only when the job runs: a change made while the event was hidden
  // stays unheard even if the event is shown again before the job's turn comes.
  if (!(await heardOutside(trx, eventID))) return;
  await jobs.add(trx, NOTIFY_JOB, { eventID, version }, { key: `${eventID}:${version}` });
}
