import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { badRequest } from '../../errors.ts';

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

export type BillingProduct = 'email' | 'sms';

/**
 * Adds a balance of e-mails or SMS to a company (no eventID) or to one of its events: `amount` bought,
 * `sent` already used (whole numbers, sent never above amount). Answers the new billingID.
 */
export async function addBalance(
  db: Kysely<DB>,
  owner: { companyID: number; eventID?: number },
  product: BillingProduct,
  amount: number,
  sent = 0,
): Promise<number> {
  if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(sent) || sent < 0 || amount < sent)
    throw badRequest(`a ${product} balance needs whole numbers 0 <= sent <= amount`);
  const row = await db
    .insertInto('billing')
    .values({ companyID: owner.companyID, eventID: owner.eventID ?? null, product, amount, sent })
    .returning('billingID')
    .executeTakeFirstOrThrow();
  return row.billingID;
}
