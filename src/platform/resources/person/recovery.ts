import type { Kysely } from 'kysely';
import type { DB, Person } from '../../db/schema.ts';
import type { JobHandler, JobQueue } from '../../jobs/queue.ts';
import type { Message, Outbox } from '../../mail/outbox.ts';
import { CONFIRMATION_TTL_SECONDS, issueConfirmation, requestConfirmation } from './identity.ts';

// person.recover's e-mail is a durable job (issue 11), not work of the request:
//
// - the operation writes the request (a confirmation row no code spends yet) and adds the job in the
//   same transaction: no job without its request, no request without its job;
// - the job carries the person's id and the request's id, nothing secret: it makes the code itself,
//   stores the code's hash on the request's row, then writes the message (MAIL_DIR);
// - run again (a worker killed after the message went, before the job was marked done; a lease that ran
//   out), it makes a new code whose hash replaces the first: the person may get two messages, but only
//   the last one's link works, so there are never two valid codes for one request. Once the link is
//   used, a run sends nothing.

export const RECOVER_MAIL_JOB = 'person.recover.mail';

export interface RecoverMailPayload {
  readonly personID: number;
  readonly request: string;
}

/** Inside the recover write's transaction `trx`: the request, and the job that mails its code. */
export async function requestRecovery(
  trx: Kysely<DB>,
  jobs: Pick<JobQueue, 'add'>,
  personID: number,
  now: number,
): Promise<void> {
  const request = await requestConfirmation(trx, personID, 'password', now);
  const payload: RecoverMailPayload = { personID, request };
  await jobs.add(trx, RECOVER_MAIL_JOB, { ...payload }, { key: request });
}

/** The message of a link to set the password. */
export function recoveryMessage(person: Person, code: string, siteUrl: string): Message {
  const minutes = CONFIRMATION_TTL_SECONDS / 60;
  return {
    // Found by e-mail or by a username that is the address (findPersonByEmail).
    to: person.email || person.username,
    subject: 'Set your Podium password',
    text: [
      `Someone (we hope you) asked to set the password of the Podium account ${person.username}.`,
      '',
      `Open this link within ${minutes} minutes to choose a new password (it works once):`,
      `${siteUrl}/podium-password?code=${code}`,
      '',
      // For apps that set the password through the API (person.confirm), in words an attendee can skip.
      `If an app asks you for a code instead, it is: ${code}`,
      '',
      'If you did not ask for it, ignore this message: nothing changes.',
    ].join('\n'),
  };
}

export interface RecoverMailOptions {
  /** The site the link leads to (SITE_URL). */
  readonly siteUrl: string;
  /** For tests only (MAIL_DELAY_MS): ms between making the code and writing the message. */
  readonly delayMs?: number;
  /** Unix seconds. */
  readonly now?: () => number;
}

/** The job's handler: makes the request's code and mails it (see above for a run again). */
export function recoverMailHandler(db: Kysely<DB>, outbox: Outbox, options: RecoverMailOptions): JobHandler {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return async (payload: RecoverMailPayload) => {
    const issued = await issueConfirmation(db, payload.personID, payload.request, now());
    if (!issued) return;
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    await outbox.send(recoveryMessage(issued.person, issued.code, options.siteUrl));
  };
}
