import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobLogger } from '../../jobs/queue.ts';
import { plainLine } from '../../jobs/retry.ts';
import { Abandoned, isPermanent, type Message, type Outbox } from '../../mail/outbox.ts';
import {
  holdUnit,
  isSuppressed,
  logRowOf,
  moveLog,
  releaseUnit,
  suppress,
  type EmailStatus,
  type LogStart,
} from './repository.ts';

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
  // A row left `sending` follows a run that died (or stalled) mid-send. Through a committing outbox
  // (SMTP) the end of data only goes once the row says `sent`, so that message never arrived: it is
  // sent now, the row taken over. Through any other outbox it may have gone: it is not sent again.
  if (row.status === 'sending' && !outbox.committing) {
    const reason = 'a worker stopped while sending; not sent again, as it may have gone';
    await moveLog(db, id, ['sending'], 'unknown', { reason }, now());
    options.logger.warn({ emailLogID: id }, 'mail: ' + reason);
    return 'unknown';
  }
  const from: EmailStatus[] = [row.status];
  if (await isSuppressed(db, start.eventID, start.to)) {
    await moveLog(db, id, from, 'skipped', { reason: 'the address is on the suppression list' }, now());
    options.logger.info({ emailLogID: id, eventID: start.eventID }, 'mail skipped: suppressed address');
    return 'skipped';
  }
  const message = await compose(id);
  const messageID = `<log-${id}@${options.domain}>`;
  // This run's claim: the row's attempts count it, and only the run holding the last claim may
  // complete the message (a stalled run whose row was taken over abandons its own).
  const attempts = row.attempts + 1;
  const set = { from: fromText(message, ''), subject: message.subject, to: message.to, attempts };
  if (!(await moveLog(db, id, from, 'sending', { ...set, messageID }, now(), row.attempts))) return 'sending';
  // One unit of the balance, taken just before the message leaves and given back if it does not. A
  // run taking over from one that died mid-send finds that run's unit on the row: it is this message's.
  const held =
    options.emailAllowance === undefined
      ? undefined
      : row.billingID > 0
        ? row.billingID
        : await holdUnit(db, id, attempts, start.eventID, options.emailAllowance);
  // A later run claimed the message meanwhile: it is that run's to send.
  if (held === 'taken') return 'sending';
  const billingID = held === 'empty' ? undefined : held;
  if (held === 'empty') {
    await moveLog(db, id, ['sending'], 'skipped', { reason: 'no e-mail balance left' }, now());
    options.logger.warn({ emailLogID: id, eventID: start.eventID }, 'mail skipped: no e-mail balance left');
    return 'skipped';
  }
  // The commit: the row says `sent` before the receiver is told the message is complete.
  const commit = () => moveLog(db, id, ['sending'], 'sent', { reason: '' }, now(), attempts);
  try {
    await outbox.send({ ...message, messageId: messageID }, outbox.committing ? commit : undefined);
  } catch (err) {
    const committed = (err as { committed?: boolean }).committed === true;
    const answered = typeof (err as { responseCode?: unknown }).responseCode === 'number';
    // A later run took the message over, with its unit: that run gives it back or spends it.
    if (err instanceof Abandoned) return 'sending';
    // The unit goes back unless the message may have left (committed, no answer to the end of data).
    if (billingID !== undefined && (!committed || answered)) await releaseUnit(db, id, billingID);
    const reason = plainLine(err);
    // After the commit the row says sent: what the server answered to the end of data decides.
    const was: EmailStatus[] = committed ? ['sent'] : ['sending'];
    if (committed && !answered) {
      // No answer to the end of data (the connection dropped): it may have been taken. Not sent again.
      await moveLog(db, id, was, 'unknown', { reason: `no answer to the end of data: ${reason}` }, now());
      options.logger.warn({ emailLogID: id }, 'mail: no answer to the end of data; not sent again');
      return 'unknown';
    }
    if (isPermanent(err)) {
      await moveLog(db, id, was, 'failed', { reason }, now());
      await suppress(db, start.eventID, start.to, `bounce: ${reason}`, now());
      options.logger.info(
        { emailLogID: id, eventID: start.eventID },
        'mail refused for good (hard bounce): suppressed',
      );
      return 'failed';
    }
    await moveLog(db, id, was, 'queued', { reason }, now());
    throw err;
  }
  if (!outbox.committing) await moveLog(db, id, ['sending'], 'sent', { reason: '' }, now());
  return 'sent';
}
