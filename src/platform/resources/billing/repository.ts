import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * The e-mail / SMS balances (spec §4.12 billing.find) of one event, or of the company itself (rows
 * with no event), with `remaining` = amount − sent (never below 0) and eventID 0 for the company's.
 */
export async function balances(db: Kysely<DB>, owner: { eventID: number } | { companyID: number }) {
  const rows = await db
    .selectFrom('billing')
    .selectAll()
    .$if('eventID' in owner, (q) => q.where('eventID', '=', (owner as { eventID: number }).eventID))
    .$if('companyID' in owner, (q) =>
      q.where('companyID', '=', (owner as { companyID: number }).companyID).where('eventID', 'is', null),
    )
    .orderBy('billingID')
    .execute();
  return rows.map((r) => ({ ...r, eventID: r.eventID ?? 0, remaining: Math.max(0, r.amount - r.sent) }));
}
