import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobQueue } from '../../jobs/queue.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { addressOf, confirmationMessage } from './compose.ts';
import { deliver, type DeliverOptions } from './deliver.ts';
import { confirmationData, confirmationOn } from './repository.ts';
import { eventSenders } from '../sender/repository.ts';
import { issueLink } from '../person/magic.ts';
import { myRegistrationLink } from './link.ts';
import { peopleJobs, personOf, type PeopleJob, type PersonChange } from '../change/people.ts';

// The registration confirmation (issue 15, outcome 2) follows the change log: the registration adds
// nothing to its transaction for it. The change every write records there (kernel/changes.ts) names the
// attendee of a registration (CONFIRMING, ids.personID). The feeder of webhooks/feed.ts reads the log
// for it too, on a feed of its own (`confirm`, every CONFIRM_FEED_MS), and adds a CONFIRM_JOB per batch
// of the attendees it finds in the transaction that moves the feed: a confirmation is queued if and only
// if its registration committed, and the registration never waits for the mail nor fails with it.
//
// Why not a job in the registration's transaction (as before): the job's row, its indexes and the worker
// woken to claim it at once cost a third of a registration (bench/mail.mjs: 792 against 1,097
// registrations/s); a round's batch costs one row for many.
//
// One e-mail per person and event, ever: the e-mail log's idem `confirmation:<eventID>:<personID>`
// (deliver.ts), so registering again after being removed sends nothing new, and neither does a change
// fed twice (PostgreSQL's late commits, feed.ts) nor a job run twice. Whether the attendee is approved
// is decided when the job runs: a waiting-list registration feeds a job that sends nothing.

export const CONFIRM_JOB = 'email.confirm';

/**
 * Operations whose change names (ids.personID) the person they made, or approved as, an attendee of the
 * event; the answer's `emailed` of form.respondRegistration says whether this will mail.
 */
export const CONFIRMING: ReadonlySet<string> = new Set([
  'form.respondRegistration',
  'event.person.bind',
  'event.applicant.approve',
]);

/** A job's people, [eventID, personID]; jobs queued before batches named one person (eventID, personID). */
type ConfirmPayload =
  { readonly people: readonly [number, number][] } | { readonly eventID: number; readonly personID: number };

/**
 * The confirmations the changes ask for, as jobs of up to 25 attendees (change/people.ts; feed.ts adds
 * them in its round's transaction): the attendee of each CONFIRMING change whose company has the
 * confirmationEmail tool on. `on` remembers the tool per event for the round.
 */
export async function confirmationJobs(
  db: Kysely<DB>,
  changes: readonly PersonChange[],
  on: Map<number, boolean> = new Map(),
): Promise<PeopleJob[]> {
  const people: [number, number, number][] = [];
  for (const c of changes) {
    // The attendee: the ids of a CONFIRMING change name them (kernel/changes.ts).
    const named = personOf(c, CONFIRMING);
    if (!named) continue;
    const [eventID, personID] = named;
    let yes = on.get(eventID);
    if (yes === undefined) on.set(eventID, (yes = await confirmationOn(db, eventID)));
    if (yes) people.push([eventID, personID, c.changeID]);
  }
  return peopleJobs(people);
}

/**
 * Inside a write's transaction `trx`: a confirmation for an attendee that write approved whose change
 * does not name them (a waiting list moving up), when the company's confirmationEmail tool is on.
 * Answers whether one was queued. The registrations themselves need no call (CONFIRMING).
 */
export async function queueConfirmation(
  trx: Kysely<DB>,
  jobs: Pick<JobQueue, 'add'>,
  eventID: number,
  personID: number,
): Promise<boolean> {
  if (!(await confirmationOn(trx, eventID))) return false;
  await jobs.add(trx, CONFIRM_JOB, { people: [[eventID, personID]] }, { key: `${eventID}:${personID}` });
  return true;
}

export interface ConfirmOptions extends DeliverOptions {
  readonly siteUrl: string;
  readonly mailFrom: string;
  /**
   * MAGIC_LINK_CONFIRMATION_TTL: how long the message's "My registration" link (an event magic link,
   * person.signInLink) works. Undefined: the message has no such link.
   */
  readonly linkTtlSeconds?: number;
}

export function confirmHandler(db: Kysely<DB>, outbox: Outbox, options: ConfirmOptions): JobHandler {
  const confirm = confirmOne(db, outbox, options);
  return async (payload: ConfirmPayload) => {
    const people = 'people' in payload ? payload.people : [[payload.eventID, payload.personID] as const];
    // Each its own message: one that fails (the server down, a 4xx) does not keep the others; the job
    // is then retried, and the ones that went are not sent again (their log rows say sent).
    let failed: unknown;
    for (const [eventID, personID] of people)
      await confirm(eventID, personID).catch((err: unknown) => (failed ??= err));
    if (failed !== undefined) throw failed;
  };
}

function confirmOne(db: Kysely<DB>, outbox: Outbox, options: ConfirmOptions) {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return async (eventID: number, personID: number) => {
    const data = await confirmationData(db, eventID, personID);
    // Removed since, on the waiting list, or no address to write to: nothing to send.
    if (!data || data.approved !== 1 || !data.email.includes('@')) return;
    const idem = `confirmation:${eventID}:${personID}`;
    await deliver(
      db,
      outbox,
      { eventID, personID, eventEmailID: 0, kind: 'confirmation', idem, to: data.email },
      async () => {
        // The link's code is made with the message (never stored but hashed, never in the job): a run
        // that composes again replaces it, so only the link of the message that went works.
        const code =
          options.linkTtlSeconds === undefined
            ? undefined
            : await issueLink(db, eventID, personID, now(), options.linkTtlSeconds, idem);
        return confirmationMessage(
          data,
          {
            siteUrl: options.siteUrl,
            mailFrom: options.mailFrom,
            now: now(),
            ...(code === undefined
              ? {}
              : { me: { link: myRegistrationLink(data, options.siteUrl, code), ttlSeconds: options.linkTtlSeconds! } }),
          },
          await eventSenders(db, eventID, data.emailAddress),
        );
      },
      options,
    );
  };
}

/** The domain of MAIL_FROM, for Message-IDs. */
export const mailDomain = (mailFrom: string) => addressOf(mailFrom).split('@')[1] ?? 'podium.localhost';
