import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobLogger } from '../../jobs/queue.ts';
import { plainLine } from '../../jobs/retry.ts';
import { recordChange } from '../change/log.ts';
import { CrmError, type CrmProvider } from './provider.ts';
import { advance, eventName, finishRun, linkOf, markRunning, noteError, peopleAfter, peopleCount } from './repository.ts'; // prettier-ignore
import { openToken } from './secret.ts';

// company.person.sync adds one job per linked event (payload: the event and the run it started). The
// job pushes the event's people to the provider in batches of CRM_BATCH, in personID order, and moves
// the link's cursor after each batch the provider acknowledged. A retry (the provider was down, a worker
// died) resumes after the cursor; a batch sent again after a lost acknowledgement carries the same
// Idempotency-Key (event, run, cursor) and the same externalIds, so the provider drops or upserts it.
// A newer run, or the link's removal, stops an older run's job at its next step. A refusal (4xx) or
// the last attempt ends the run as failed with the provider's line; crmfeed.get shows every step.
// The end of a run is a change (crmfeed.sync.done, crmfeed.sync.fail: kind crmfeed, objectID the event),
// recorded in the transaction that ends it, so webhooks and change.subscribe hear of it.

export const CRM_SYNC_JOB = 'crmfeed.sync';
/** The changes a run's end records (heard by webhooks: JOB_CHANGES in resources/webhook/fields.ts). */
export const CRM_SYNC_DONE = 'crmfeed.sync.done';
export const CRM_SYNC_FAIL = 'crmfeed.sync.fail';

export interface CrmSyncPayload {
  readonly eventID: number;
  readonly run: number;
  /** The job's attempts (JOBS_MAX_ATTEMPTS when added): the last one's failure ends the run. */
  readonly maxAttempts: number;
}

export interface CrmSyncOptions {
  readonly batch: number;
  readonly secretKey: Buffer | undefined;
  readonly logger: JobLogger;
}

const now = () => Math.floor(Date.now() / 1000);

/** Ends the run (when it still is the event's) and records its change, in one transaction. */
async function endRun(db: Kysely<DB>, eventID: number, run: number, status: 'done' | 'failed', error: string) {
  await db.transaction().execute(async (trx) => {
    const companyID = await finishRun(trx, eventID, run, status, error, now());
    if (companyID === undefined) return;
    await recordChange(trx, {
      operation: status === 'done' ? CRM_SYNC_DONE : CRM_SYNC_FAIL,
      kind: 'crmfeed',
      companyID,
      eventID,
      objectID: eventID,
      ids: { eventID, companyID },
    });
  });
}

/** One person as the provider gets them: strings only, keyed by a stable externalId. */
function asPerson(eventID: number, r: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = { externalId: `podium-${eventID}-${String(r.personID)}` };
  for (const [k, v] of Object.entries(r)) out[k] = v === null || v === undefined ? '' : String(v);
  return out;
}

export function crmSyncHandler(db: Kysely<DB>, provider: CrmProvider | undefined, o: CrmSyncOptions): JobHandler {
  return async ({ eventID, run, maxAttempts }: CrmSyncPayload, job) => {
    const link = await linkOf(db, eventID);
    if (!link || link.syncRun !== run || !['queued', 'running'].includes(link.syncStatus)) return;
    const fail = async (line: string) => {
      await endRun(db, eventID, run, 'failed', line);
      o.logger.warn({ eventID, run }, 'crmfeed sync failed');
    };
    if (!provider) return fail('no CRM connected: the platform has no CRM provider (CRM_URL)');
    let token: string;
    try {
      token = openToken(o.secretKey ?? Buffer.alloc(0), link.token);
    } catch {
      return fail("the event's CRM token cannot be opened with this platform's key: link the event again");
    }
    if (!(await markRunning(db, eventID, run, await peopleCount(db, eventID)))) return;
    const event = { eventID: String(eventID), name: await eventName(db, eventID) };
    let cursor = link.syncCursor;
    for (;;) {
      const rows = await peopleAfter(db, eventID, cursor, o.batch);
      if (rows.length === 0) break;
      const last = rows[rows.length - 1].personID;
      try {
        await provider.push(
          token,
          { communityId: link.communityId, groupId: link.groupId, event, people: rows.map((r) => asPerson(eventID, r)) }, // prettier-ignore
          `crmfeed-${eventID}-${run}-${cursor}`,
        );
      } catch (err) {
        // The provider's own line for the admins (crmfeed.get); anything else only in the log.
        const line = err instanceof CrmError ? err.message : 'the sync stopped on an internal error';
        if (!(err instanceof CrmError)) o.logger.error({ eventID, run, err: plainLine(err) }, 'crmfeed sync error');
        if ((err instanceof CrmError && err.refused) || job.attempt >= maxAttempts) return fail(line);
        await noteError(db, eventID, run, line);
        throw err;
      }
      // Another run started, or the link went: this job's work is over.
      if (!(await advance(db, eventID, run, cursor, last, rows.length))) return;
      cursor = last;
    }
    await endRun(db, eventID, run, 'done', '');
    o.logger.info({ eventID, run }, 'crmfeed sync done');
  };
}
