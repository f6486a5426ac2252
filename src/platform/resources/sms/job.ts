import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobLogger } from '../../jobs/queue.ts';
import { plainLine } from '../../jobs/retry.ts';
import { SmsRefused, type SmsProvider } from '../../mail/sms.ts';
import { refund, reserve } from '../billing/repository.ts';
import { moveSms, smsByID } from './repository.ts';

// event.sendSMS adds this job with its smsLog row: the row goes queued → sending before the message
// leaves and → sent after, compare-and-set, so of two runs only one sends; a run that finds it still
// `sending` follows one that died mid-send and does not send again (`unknown`). The SMS balance gives
// one unit just before the send and takes it back when the message did not leave.

export const SMS_JOB = 'sms.send';

export interface SmsJobOptions {
  readonly logger: JobLogger;
  readonly allowance: number;
}

export function smsHandler(db: Kysely<DB>, provider: SmsProvider, o: SmsJobOptions): JobHandler {
  const now = () => Math.floor(Date.now() / 1000);
  return async ({ smsLogID }: { smsLogID: number }) => {
    const row = await smsByID(db, smsLogID);
    if (!row || row.status !== 'queued') {
      if (row?.status === 'sending') {
        await moveSms(db, smsLogID, ['sending'], 'unknown', 'a worker stopped while sending; not sent again', now());
      }
      return;
    }
    if (!(await moveSms(db, smsLogID, ['queued'], 'sending', '', now()))) return;
    const billingID = await reserve(db, row.eventID, 'sms', o.allowance);
    if (billingID === undefined) {
      await moveSms(db, smsLogID, ['sending'], 'skipped', 'no SMS balance left', now());
      o.logger.warn({ smsLogID, eventID: row.eventID }, 'sms skipped: no SMS balance left');
      return;
    }
    try {
      await provider.send({ to: row.telephone, text: row.text, eventID: row.eventID, id: smsLogID });
    } catch (err) {
      await refund(db, billingID);
      if (err instanceof SmsRefused) {
        await moveSms(db, smsLogID, ['sending'], 'failed', plainLine(err), now());
        o.logger.info({ smsLogID, eventID: row.eventID }, 'sms refused by the provider');
        return;
      }
      await moveSms(db, smsLogID, ['sending'], 'queued', plainLine(err), now());
      throw err;
    }
    await moveSms(db, smsLogID, ['sending'], 'sent', '', now());
  };
}
