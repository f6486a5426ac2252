import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobQueue } from '../../jobs/queue.ts';
import type { Dns } from '../../mail/dns.ts';
import { disposableDomains, sanityChecker, type SanityChecker } from './check.ts';
import { addressesAfter, addressesOf, storeSanity } from './repository.ts';
import { recordChange } from '../change/log.ts';
import { peopleJobs, personOf, type PeopleJob, type PersonChange } from '../change/people.ts';

// The address checks run as jobs, never inside a request (the MX questions take their time):
//
// - event.sanity.refresh adds SANITY_JOB: it checks all the event's attendee addresses in batches after
//   a cursor (personID), each batch's results written and the next batch's job added in one
//   transaction, so a worker stopped midway resumes where the last batch ended.
// - A registration, or an edit, starts the check of its attendee's address: the feeder of
//   webhooks/feed.ts follows the change log on a feed of its own (`sanity`, every SANITY_FEED_MS) and
//   adds a SANITY_CHECK_JOB per batch of the attendees the changes of CHECKING name (sanityJobs), in the
//   transaction that moves the feed. The job checks the addresses the event has no check of yet.

export const SANITY_JOB = 'sanity.scan';
export const SANITY_CHECK_JOB = 'sanity.check';
const BATCH = 500;

/**
 * Operations whose change names (ids.personID) an attendee they made or edited: the registration form
 * (an application through it is `event.applicant.bind`: not an attendee yet, its check comes with
 * `event.applicant.approve`), an admin's bind, the e-mail and CSV forms of activity.person.bind (a new
 * person enrolled in the event; a CSV's rows are a change each), and event.person.operate
 * (any key: the change does not say which, and an address checked already is not asked again).
 */
export const CHECKING: ReadonlySet<string> = new Set([
  'form.respondRegistration',
  'event.person.bind',
  'event.applicant.approve',
  'event.person.operate',
  'activity.person.bind',
]);

/** The checks the changes ask for: a SANITY_CHECK_JOB per 25 attendees (each once a round), keyed by its first change. */
export function sanityJobs(changes: readonly PersonChange[]): PeopleJob[] {
  const seen = new Set<string>();
  const people: [number, number, number][] = [];
  for (const c of changes) {
    const named = personOf(c, CHECKING);
    if (!named) continue;
    const key = `${named[0]}:${named[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    people.push([named[0], named[1], c.changeID]);
  }
  return peopleJobs(people);
}

type Checked = { email: string; reason: string };

/** Each address's check (lower-case, trimmed), the checker asking each domain's MX once. */
const checkAll = (checker: SanityChecker, emails: readonly string[]): Promise<Checked[]> =>
  Promise.all(emails.map(async (e) => ({ email: e.trim().toLowerCase(), reason: await checker.check(e) })));

/** Stores an event's checks in `trx`, and records them as one quiet change of the event (none when empty). */
async function storeAll(trx: Kysely<DB>, operation: string, eventID: number, results: readonly Checked[]) {
  if (results.length === 0) return;
  const now = Math.floor(Date.now() / 1000);
  for (const r of results) await storeSanity(trx, eventID, r.email, r.reason, now);
  // Quiet: bookkeeping that follows a write (no webhook type names it; event.sanity.find reads the checks).
  await recordChange(trx, { operation, kind: 'event.sanity', eventID, objectID: eventID, ids: { eventID }, quiet: true }); // prettier-ignore
}

export function sanityHandler(db: Kysely<DB>, queue: Pick<JobQueue, 'add'>, dns: Dns): JobHandler {
  return async ({ eventID, after }: { eventID: number; after: number }) => {
    const rows = await addressesAfter(db, eventID, after, BATCH);
    const results = await checkAll(
      sanityChecker(dns, await disposableDomains()),
      rows.map((r) => r.email),
    );
    await db.transaction().execute(async (trx) => {
      await storeAll(trx, SANITY_JOB, eventID, results);
      if (rows.length === BATCH)
        await queue.add(trx, SANITY_JOB, { eventID, after: rows.at(-1)!.personID }, { key: `${eventID}:${rows.at(-1)!.personID}` }); // prettier-ignore
    });
  };
}

/**
 * SANITY_CHECK_JOB: the current addresses of the listed attendees that their event has no check of
 * (a removed attendee, or one without an address, has none); one checker for the job.
 */
export function sanityCheckHandler(db: Kysely<DB>, dns: Dns): JobHandler {
  return async ({ people }: { people: [number, number][] }) => {
    const unchecked = await addressesOf(db, people);
    if (unchecked.size === 0) return;
    const checker = sanityChecker(dns, await disposableDomains());
    const results = await Promise.all([...unchecked].map(async ([eventID, emails]) => [eventID, await checkAll(checker, emails)] as const)); // prettier-ignore
    await db.transaction().execute(async (trx) => {
      for (const [eventID, checked] of results) await storeAll(trx, SANITY_CHECK_JOB, eventID, checked);
    });
  };
}
