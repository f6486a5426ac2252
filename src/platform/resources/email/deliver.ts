import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobLogger } from '../../jobs/queue.ts';
import { plainLine } from '../../jobs/retry.ts';
import { isPermanent, type Message, type Outbox } from '../../mail/outbox.ts';
import { refund, reserve } from '../billing/repository.ts';
import { isSuppressed, logRowOf, moveLog, suppress, type EmailStatus, type LogStart } from './repository.ts';

// One message, sent at most once whatever happens to the job that sends it (issue 15, "never sent twice
// after a worker crash"). Its e-mail log row, keyed by what the message is for (idem), goes
// queued → sending before the message leaves and sending → sent after; the moves are compare-and-set,
// so of two runs only one sends. A run that finds the row still `sending` follows one that died while
// sending: the message may have gone, so it is not sent again (the row says `unknown`). An SMTP 5xx is a
// hard bounce: the row is `failed` and the address goes on the suppression list; any other failure
// (the server down, a 4xx) puts the row back to `queued` and throws, so the job is retried.

export interface DeliverOptions {
  readonly logger: JobLogger;
  /** The domain of Message-IDs (MAIL_FROM's). */
  readonly domain: string;
  /** Unix seconds. */
  readonly now?: () => number;
  /**
   * EMAIL_ALLOWANCE: each message that leaves takes one unit of the event's e-mail balance (billing),
   * none left skips it. Undefined: not metered (jobs run by hand in tests).
   */
  readonly emailAllowance?: number;
}

const DONE: ReadonlySet<EmailStatus> = new Set(['sent', 'failed', 'skipped', 'unknown']);

const fromText = (m: Message, fallback: string) =>
  m.from === undefined ? fallback : typeof m.from === 'string' ? m.from : `${m.from.name} <${m.from.address}>`;

export async function deliver(
  db: Kysely<DB>,
  outbox: Outbox,
  start: LogStart,
  /** Makes the message; gets its log row's id (the tracking pixel's link names it). */
  compose: (emailLogID: number) => Promise<Message>,
  options: DeliverOptions,
): Promise<EmailStatus> {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const row = await logRowOf(db, start, now());
  const id = row.emailLogID;
  if (DONE.has(row.status)) return row.status;
  if (row.status === 'sending') {
    const reason = 'a worker stopped while sending; not sent again, as it may have gone';
    await moveLog(db, id, ['sending'], 'unknown', { reason }, now());
    options.logger.warn({ emailLogID: id }, 'mail: ' + reason);
    return 'unknown';
  }
  if (await isSuppressed(db, start.eventID, start.to)) {
    await moveLog(db, id, ['queued'], 'skipped', { reason: 'the address is on the suppression list' }, now());
    options.logger.info({ emailLogID: id, eventID: start.eventID }, 'mail skipped: suppressed address');
    return 'skipped';
  }
  const message = await compose(id);
  const messageID = `<log-${id}@${options.domain}>`;
  const set = { from: fromText(message, ''), subject: message.subject, to: message.to, attempts: row.attempts + 1 };
  if (!(await moveLog(db, id, ['queued'], 'sending', { ...set, messageID }, now()))) return 'sending';
  // One unit of the balance, taken just before the message leaves and given back if it does not.
  const billingID =
    options.emailAllowance === undefined
      ? undefined
      : await reserve(db, start.eventID, 'email', options.emailAllowance);
  if (options.emailAllowance !== undefined && billingID === undefined) {
    await moveLog(db, id, ['sending'], 'skipped', { reason: 'no e-mail balance left' }, now());
    options.logger.warn({ emailLogID: id, eventID: start.eventID }, 'mail skipped: no e-mail balance left');
    return 'skipped';
  }
  try {
    await outbox.send({ ...message, messageId: messageID });
  } catch (err) {
    const reason = plainLine(err);
    if (billingID !== undefined) await refund(db, billingID);
    if (isPermanent(err)) {
      await moveLog(db, id, ['sending'], 'failed', { reason }, now());
      await suppress(db, start.eventID, start.to, `bounce: ${reason}`, now());
      options.logger.info(
        { emailLogID: id, eventID: start.eventID },
        'mail refused for good (hard bounce): suppressed',
      );
      return 'failed';
    }
    await moveLog(db, id, ['sending'], 'queued', { reason }, now());
    throw err;
  }
  await moveLog(db, id, ['sending'], 'sent', { reason: '' }, now());
  return 'sent';
}
