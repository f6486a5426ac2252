import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler, JobQueue } from '../../jobs/queue.ts';
import type { Dns } from '../../mail/dns.ts';
import { storedSecret } from '../../auth/grant.ts';
import { checkOwner, ownerToken, type Check } from '../sender/check.ts';
import { recordChange, type ChangeRow } from '../change/log.ts';

// A custom domain is served only once its owner has shown, in DNS, that it is theirs (docs/api.md
// "Custom domains"). Without the check, any company could set a domain it does not own as its event's
// cname: the site would answer for it, and the TLS ask would let the proxy fetch certificates for it.
//
// event.edit key=cname stores the domain asked for (cnameAsked) and adds a job; the job asks DNS for
// `_podium.<domain>` TXT `podium-verification=<token>`, the company's own token for the domain (the
// one a sender at the same domain uses, so one record serves both). Only when it is there does the
// domain become the served `cname`. A check that fails keeps whatever was served before; the organizer
// publishes the record and edits cname again to check again.

export const CNAME_CHECK_JOB = 'event.cname.check';

export interface CnameCheckPayload {
  readonly eventID: number;
  readonly cname: string;
}

/** What cnameDNS holds: the owner check's result, or 'checking' with the record to publish. */
export type CnameDNS = Omit<Check, 'status'> & { readonly status: Check['status'] | 'checking' };

const tokenOf = async (db: Kysely<DB>, companyID: number, domain: string) =>
  ownerToken(await storedSecret(db, 'senderSecret'), companyID, domain);

/**
 * The columns event.edit writes for `cname` = `asked`, inside its transaction (adding the check job
 * there, so the job exists if and only if the edit committed). Clearing stops serving at once; asking
 * for the domain already served keeps it; any other domain waits for its check.
 */
export async function askCname(
  trx: Kysely<DB>,
  jobs: Pick<JobQueue, 'add'>,
  event: { eventID: number; companyID: number; cname: string | null },
  asked: string | null,
): Promise<Updateable<DB['event']>> {
  if (asked === null) return { cname: null, cnameAsked: null, cnameState: '', cnameDNS: '' };
  if (asked === event.cname) return { cnameAsked: asked, cnameState: 'verified' };
  const name = `_podium.${asked}`;
  const expected = `podium-verification=${await tokenOf(trx, event.companyID, asked)}`;
  const pending: CnameDNS = { status: 'checking', name, found: '', expected, reason: '' };
  await jobs.add(trx, CNAME_CHECK_JOB, { eventID: event.eventID, cname: asked } satisfies CnameCheckPayload);
  return { cnameAsked: asked, cnameState: 'checking', cnameDNS: JSON.stringify(pending) };
}

/**
 * The check: stores its result when the event still asks for the domain that was checked (an edit
 * meanwhile has its own job), and serves the domain when the record is there and no other event serves
 * it. The change is recorded in the same transaction and handed to `publish` (the bus) after the commit,
 * so caches and the site forget the event's old answers at once.
 */
export function cnameCheckHandler(
  db: Kysely<DB>,
  dns: Dns,
  publish: (changes: readonly ChangeRow[]) => unknown = () => undefined,
): JobHandler {
  return async ({ eventID, cname }: CnameCheckPayload) => {
    const event = await db.selectFrom('event').select(['companyID', 'cnameAsked']).where('eventID', '=', eventID).executeTakeFirst(); // prettier-ignore
    if (!event || event.cnameAsked !== cname) return;
    let check: CnameDNS = await checkOwner(dns, cname, await tokenOf(db, event.companyID, cname));
    const change = await db.transaction().execute(async (trx) => {
      const taken = await trx.selectFrom('event').select('eventID').where('cname', '=', cname).where('eventID', '!=', eventID).executeTakeFirst(); // prettier-ignore
      if (check.status === 'ok' && taken) check = { ...check, status: 'wrong', reason: 'another event serves this domain' }; // prettier-ignore
      const ok = check.status === 'ok';
      const { numUpdatedRows } = await trx
        .updateTable('event')
        .set({ cnameState: ok ? 'verified' : check.status, cnameDNS: JSON.stringify(check), ...(ok ? { cname } : {}) })
        .where('eventID', '=', eventID)
        .where('cnameAsked', '=', cname)
        .executeTakeFirst();
      if (numUpdatedRows === 0n) return undefined;
      return recordChange(trx, {
        operation: CNAME_CHECK_JOB,
        kind: 'event',
        companyID: event.companyID,
        eventID,
        objectID: eventID,
        ids: { eventID },
      });
    });
    if (change) await publish([change]);
  };
}
