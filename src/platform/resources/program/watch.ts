import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { lockRow } from '../../db/lock.ts';
import { kindOf } from '../change/log.ts';
import { diffPrograms, programOf } from './snapshot.ts';
import { recordProgramChanges } from './repository.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { queuePushNotices } from '../webpush/watch.ts';

// The dispatcher's hook for the program changelog: a write of a module that can change what the
// program shows (a session, its speakers, a speaker's name) snapshots the event's program before and
// after its handler, in its transaction, and records the difference. One hook for every such
// operation, so none of them has to say what it changed, and none can forget to.

/** The modules whose writes can change a program's sessions, rooms, times or speakers. */
const PROGRAM_KINDS: ReadonlySet<string> = new Set(['activity', 'activity.speaker', 'speaker']);

/**
 * For a write of operation `name` in event `eventID`: locks the event's row (concurrent program writes
 * of one event take turns, so each sees the other's result and versions do not collide), takes the
 * "before" snapshot and answers the step to run after the handler, which records the difference and
 * adds the Web Push job of a change browsers saved (webpush/watch.ts). Undefined for other writes.
 */
export async function watchProgram(
  trx: Kysely<DB>,
  name: string,
  eventID: number | undefined,
): Promise<((at: number, jobs: Pick<JobQueue, 'add'>) => Promise<void>) | undefined> {
  if (eventID === undefined || !PROGRAM_KINDS.has(kindOf(name))) return undefined;
  if (!(await lockRow(trx, 'event', eventID))) return undefined;
  const before = await programOf(trx, eventID);
  return async (at, jobs) => {
    const changes = diffPrograms(before, await programOf(trx, eventID));
    const version = await recordProgramChanges(trx, eventID, changes, at);
    if (version > 0) await queuePushNotices(trx, jobs, eventID, version, changes);
  };
}
