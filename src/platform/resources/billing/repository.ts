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

/** Who a credit is for: the company (and event) a billing row is made for; undefined when there is none. */
export async function billingOwner(
  db: Kysely<DB>,
  target: { eventID: number } | { companyID: number },
): Promise<{ companyID: number; eventID?: number } | undefined> {
  if ('eventID' in target) {
    const event = await db.selectFrom('event').select('companyID').where('eventID', '=', target.eventID).executeTakeFirst(); // prettier-ignore
    return event ? { companyID: event.companyID, eventID: target.eventID } : undefined;
  }
  const company = await db.selectFrom('company').select('companyID').where('companyID', '=', target.companyID).executeTakeFirst(); // prettier-ignore
  return company ? { companyID: company.companyID } : undefined;
}

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

// Spending (issue 15 outcome 6): each e-mail and SMS that actually goes out takes one unit of a
// balance — the event's own rows first, then its company's. A company with no row of a product at all
// has the platform's default allowance (EMAIL_ALLOWANCE, SMS_ALLOWANCE): its row is made on first use.
// A unit is reserved just before the message leaves (one conditional update: two senders never take
// the last unit both) and given back when it did not leave.

/**
 * An event's company, remembered: an event never moves to another company, and every message asks
 * (one read less per message of a dispatch). Per store (tests open several in one process); bounded,
 * the oldest entries go first.
 */
const companiesByStore = new WeakMap<Kysely<DB>, Map<number, number>>();
async function companyOfEvent(db: Kysely<DB>, eventID: number): Promise<{ companyID: number } | undefined> {
  let companies = companiesByStore.get(db);
  if (!companies) companiesByStore.set(db, (companies = new Map()));
  const known = companies.get(eventID);
  if (known !== undefined) return { companyID: known };
  const event = await db.selectFrom('event').select('companyID').where('eventID', '=', eventID).executeTakeFirst();
  if (!event) return undefined;
  if (companies.size >= 10_000) companies.delete(companies.keys().next().value!);
  companies.set(eventID, event.companyID);
  return event;
}

/** The rows a message of the event may draw on, the event's first; made from the allowance when none. */
async function drawable(db: Kysely<DB>, eventID: number, product: BillingProduct, allowance: number) {
  const event = await companyOfEvent(db, eventID);
  if (!event) return [];
  const read = () =>
    db
      .selectFrom('billing')
      .select(['billingID', 'eventID', 'amount', 'sent'])
      .where('companyID', '=', event.companyID)
      .where('product', '=', product)
      .where((e) => e.or([e('eventID', '=', eventID), e('eventID', 'is', null)]))
      .orderBy('billingID')
      .execute();
  let rows = await read();
  if (rows.length === 0 && allowance > 0) {
    await ensureAllowance(db, event.companyID, product, allowance);
    rows = await read();
  }
  // Event rows first (eventID not null), then the company's.
  return [...rows.filter((r) => r.eventID !== null), ...rows.filter((r) => r.eventID === null)];
}

/**
 * Makes a company's default-allowance row of a product once, when it has no row of that product at
 * all. Many first messages run at once: a setting row claimed in the same transaction makes exactly
 * one of them insert (on PostgreSQL the others wait for its commit, then see its row).
 */
async function ensureAllowance(db: Kysely<DB>, companyID: number, product: BillingProduct, allowance: number) {
  // Inside a caller's transaction (a unit taken and noted on its message together), in that one.
  if (db.isTransaction) await claimAllowance(db, companyID, product, allowance);
  else await db.transaction().execute((trx) => claimAllowance(trx, companyID, product, allowance));
}

/**
 * Inside a transaction `trx`: makes the company's default-allowance row of a product when it has no row
 * of it yet (and never made one). A credit (billing.create) calls it first, so buying more never takes
 * away the allowance a company had not started yet.
 */
export async function claimAllowance(trx: Kysely<DB>, companyID: number, product: BillingProduct, allowance: number) {
  if (allowance <= 0) return;
  const claim = await trx
    .insertInto('setting')
    .values({ key: `billingAllowance:${companyID}:${product}`, value: String(allowance) })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(claim.numInsertedOrUpdatedRows ?? 0) !== 1) return;
  const any = await trx
    .selectFrom('billing')
    .select('billingID')
    .where('companyID', '=', companyID)
    .where('product', '=', product)
    .executeTakeFirst();
  if (!any) await addBalance(trx, { companyID }, product, allowance);
}

/** Whether a message of the event could be paid for now (nothing is taken). */
export async function canSpend(db: Kysely<DB>, eventID: number, product: BillingProduct, allowance: number) {
  const event = await db.selectFrom('event').select('companyID').where('eventID', '=', eventID).executeTakeFirst();
  if (!event) return false;
  const rows = await db
    .selectFrom('billing')
    .select(['eventID', 'amount', 'sent'])
    .where('companyID', '=', event.companyID)
    .where('product', '=', product)
    .execute();
  if (rows.length === 0) return allowance > 0;
  return rows.some((r) => (r.eventID === null || r.eventID === eventID) && r.sent < r.amount);
}

/** Takes one unit for a message of the event; answers the row it came from, or undefined when none is left. */
export async function reserve(
  db: Kysely<DB>,
  eventID: number,
  product: BillingProduct,
  allowance: number,
): Promise<number | undefined> {
  for (const row of await drawable(db, eventID, product, allowance)) {
    if (row.sent >= row.amount) continue;
    const r = await db
      .updateTable('billing')
      .set((e) => ({ sent: e('sent', '+', 1) }))
      .where('billingID', '=', row.billingID)
      .whereRef('sent', '<', 'amount')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) return row.billingID;
  }
  return undefined;
}

/** Gives a reserved unit back (the message did not leave). */
export async function refund(db: Kysely<DB>, billingID: number) {
  await db
    .updateTable('billing')
    .set((e) => ({ sent: e('sent', '-', 1) }))
    .where('billingID', '=', billingID)
    .where('sent', '>', 0)
    .execute();
}

/**
 * The company's balances as billing.find shows them: its rows, and for a product it has no row of, the
 * default allowance it would start from (billingID 0: no row yet).
 */
export async function companyBalances(
  db: Kysely<DB>,
  companyID: number,
  allowances: Readonly<Record<BillingProduct, number>>,
) {
  const rows = await balances(db, { companyID });
  const any = await db.selectFrom('billing').select('product').distinct().where('companyID', '=', companyID).execute();
  const have = new Set(any.map((r) => r.product));
  const defaults = (['email', 'sms'] as const)
    .filter((product) => !have.has(product))
    .map((product) => ({
      billingID: 0,
      companyID,
      eventID: 0,
      product,
      amount: allowances[product],
      sent: 0,
      remaining: allowances[product],
    }));
  return [...rows, ...defaults];
}
