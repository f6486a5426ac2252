import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobLogger } from '../../jobs/queue.ts';
import { plainLine } from '../../jobs/retry.ts';
import { isPermanent, type Message, type Outbox } from '../../mail/outbox.ts';
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
}

const DONE: ReadonlySet<EmailStatus> = new Set(['sent', 'failed', 'skipped', 'unknown']);

const fromText = (m: Message, fallback: string) =>
  m.from === undefined ? fallback : typeof m.from === 'string' ? m.from : `${m.from.name} <${m.from.address}>`;

export async function deliver(
  db: Kysely<DB>,
  outbox: Outbox,
  start: LogStart,
  compose: () => Promise<Message>,
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
  const message = await compose();
  const messageID = `<log-${id}@${options.domain}>`;
  const set = { from: fromText(message, ''), subject: message.subject, to: message.to, attempts: row.attempts + 1 };
  if (!(await moveLog(db, id, ['queued'], 'sending', { ...set, messageID }, now()))) return 'sending';
  try {
    await outbox.send({ ...message, messageId: messageID });
  } catch (err) {
    const reason = plainLine(err);
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
