import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobQueue } from '../../jobs/queue.ts';
import type { Dns } from '../../mail/dns.ts';
import { disposableDomains, sanityChecker } from './check.ts';
import { addressesAfter, storeSanity } from './repository.ts';
import { recordChange } from '../change/log.ts';

// event.sanity.refresh adds this job: it checks the event's attendee addresses in batches after a
// cursor (personID), each batch's results written and the next batch's job added in one transaction,
// so a worker stopped midway resumes where the last batch ended. The MX questions are asked here,
// never inside a request.

export const SANITY_JOB = 'sanity.scan';
const BATCH = 500;

export function sanityHandler(db: Kysely<DB>, queue: Pick<JobQueue, 'add'>, dns: Dns): JobHandler {
  return async ({ eventID, after }: { eventID: number; after: number }) => {
    const rows = await addressesAfter(db, eventID, after, BATCH);
    const checker = sanityChecker(dns, await disposableDomains());
    const results = await Promise.all(rows.map(async (r) => ({ email: r.email.trim().toLowerCase(), reason: await checker.check(r.email) }))); // prettier-ignore
    const now = Math.floor(Date.now() / 1000);
    await db.transaction().execute(async (trx) => {
      for (const r of results) await storeSanity(trx, eventID, r.email, r.reason, now);
      if (results.length > 0)
        await recordChange(trx, { operation: SANITY_JOB, kind: 'event.sanity', eventID, objectID: eventID, ids: { eventID } }); // prettier-ignore
      if (rows.length === BATCH)
        await queue.add(trx, SANITY_JOB, { eventID, after: rows.at(-1)!.personID }, { key: `${eventID}:${rows.at(-1)!.personID}` }); // prettier-ignore
    });
  };
}
