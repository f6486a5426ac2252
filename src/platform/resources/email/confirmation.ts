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

// The registration confirmation (issue 15, outcome 2) is a durable job added in the registration's
// transaction: it exists if and only if the registration committed, and the registration never waits
// for the mail nor fails with it. One per person and event, ever: the e-mail log's idem
// `confirmation:<eventID>:<personID>` (deliver.ts), so registering again after being removed sends
// nothing new, and neither does a job run twice.

export const CONFIRM_JOB = 'email.confirm';

interface ConfirmPayload {
  readonly eventID: number;
  readonly personID: number;
}

/**
 * Inside a registration's transaction `trx`, for an approved attendee: adds the confirmation's job when
 * the company's confirmationEmail tool is on. Answers whether one was queued. Cheap: one indexed read
 * and the job's insert.
 */
export async function queueConfirmation(
  trx: Kysely<DB>,
  jobs: Pick<JobQueue, 'add'>,
  eventID: number,
  personID: number,
): Promise<boolean> {
  if (!(await confirmationOn(trx, eventID))) return false;
  await jobs.add(trx, CONFIRM_JOB, { eventID, personID }, { key: `${eventID}:${personID}` });
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
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return async (payload: ConfirmPayload) => {
    const data = await confirmationData(db, payload.eventID, payload.personID);
    // Removed since, or no address to write to: nothing to send.
    if (!data || !data.email.includes('@')) return;
    await deliver(
      db,
      outbox,
      {
        eventID: payload.eventID,
        personID: payload.personID,
        eventEmailID: 0,
        kind: 'confirmation',
        idem: `confirmation:${payload.eventID}:${payload.personID}`,
        to: data.email,
      },
      async () => {
        // The link's code is made with the message (never stored but hashed, never in the job): a run
        // that composes again replaces it, so only the link of the message that went works.
        const code =
          options.linkTtlSeconds === undefined
            ? undefined
            : await issueLink(db, payload.eventID, payload.personID, now(), options.linkTtlSeconds, `confirmation:${payload.eventID}:${payload.personID}`); // prettier-ignore
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
          await eventSenders(db, payload.eventID, data.emailAddress),
        );
      },
      options,
    );
  };
}

/** The domain of MAIL_FROM, for Message-IDs. */
export const mailDomain = (mailFrom: string) => addressOf(mailFrom).split('@')[1] ?? 'podium.localhost';
