import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler } from '../../jobs/queue.ts';
import type { Dns } from '../../mail/dns.ts';
import { allOk, checkDomain, ownerToken, type CheckOptions } from './check.ts';
import { storedSecret } from '../../auth/grant.ts';
import { senderByID, storeCheck } from './repository.ts';
import { recordChange } from '../change/log.ts';

// event.sender.refresh adds this job in its transaction: the DNS questions (slow, external) are asked
// here, never inside a request, and the result is stored on the sender when it still has the address
// that was checked (an edit meanwhile wins).

export const SENDER_CHECK_JOB = 'sender.check';

export interface SenderCheckPayload {
  readonly senderID: number;
  readonly email: string;
}

export function senderCheckHandler(db: Kysely<DB>, dns: Dns, options: CheckOptions): JobHandler {
  return async ({ senderID, email }: SenderCheckPayload) => {
    const sender = await senderByID(db, senderID);
    if (!sender || sender.senderEmail !== email) return;
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const { companyID } = await db.selectFrom('event').select('companyID').where('eventID', '=', sender.eventID).executeTakeFirstOrThrow(); // prettier-ignore
    const token = ownerToken(await storedSecret(db, 'senderSecret'), companyID, domain);
    const checks = await checkDomain(dns, domain, { ...options, ownerToken: token });
    // The result and its change in one transaction (the change log feeds caches, push and webhooks).
    await db.transaction().execute(async (trx) => {
      const stored = await storeCheck(trx, senderID, email, { senderDNS: JSON.stringify(checks), verified: allOk(checks) }, Math.floor(Date.now() / 1000)); // prettier-ignore
      if (stored)
        await recordChange(trx, {
          operation: SENDER_CHECK_JOB,
          kind: 'event.sender',
          eventID: sender.eventID,
          objectID: sender.personID,
          ids: { eventID: sender.eventID, personID: sender.personID, senderID },
        });
    });
  };
}
