import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { CouponTable, DB } from '../../db/schema.ts';
import type { Coupon } from '../../../shared/wire/coupon.ts';

// The store of coupons (migration 0013).

export type CouponRow = Selectable<CouponTable>;

/** Crockford's base32: no I, L, O, U, so a code read aloud or typed is not mistaken. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_LENGTH = 10;

/** A new code: 10 characters of 5 random bits each (50 bits; the issue asks for at least 40). */
export function newCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  // Each byte's low 5 bits: 256 is a multiple of 32, so every character is equally likely.
  return Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
}

/** A typed code as stored: upper case, I and L read as 1, O as 0, spaces and dashes dropped. */
export const normalizeCode = (code: string): string =>
  code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');

const num = (r: CouponRow): CouponRow => ({ ...r, couponID: Number(r.couponID), expires: Number(r.expires), createdAt: Number(r.createdAt) }); // prettier-ignore

/** Adds a coupon; undefined when its code exists in the event already (the caller draws another). */
export async function insertCoupon(
  db: Kysely<DB>,
  values: Pick<CouponRow, 'eventID' | 'code' | 'discount' | 'maxUses' | 'expires' | 'createdAt'>,
): Promise<CouponRow | undefined> {
  const row = await db
    .insertInto('coupon')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && num(row);
}

export async function couponByCode(db: Kysely<DB>, eventID: number, code: string): Promise<CouponRow | undefined> {
  const row = await db
    .selectFrom('coupon')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('code', '=', normalizeCode(code))
    .executeTakeFirst();
  return row && num(row);
}

/** Why a coupon cannot be used now ('' when it can). */
export function refusal(c: CouponRow, now: number): '' | 'expired' | 'used up' {
  if (c.expires !== 0 && now > c.expires) return 'expired';
  if (c.maxUses !== 0 && c.used >= c.maxUses) return 'used up';
  return '';
}

export function couponRecord(c: CouponRow, now: number): Coupon {
  const reason = refusal(c, now);
  return {
    couponID: String(c.couponID),
    eventID: String(c.eventID),
    code: c.code,
    discount: String(c.discount),
    used: String(c.used),
    maxUses: String(c.maxUses),
    expires: String(c.expires),
    valid: reason === '' ? '1' : '0',
    reason,
  };
}

/** The event's ticket price in minor units (0: free, or none set). */
export async function ticketPrice(db: Kysely<DB>, eventID: number): Promise<number> {
  const row = await db.selectFrom('eventTicket').select('price').where('eventID', '=', eventID).executeTakeFirst();
  return row?.price ?? 0;
}

export async function setTicketPrice(db: Kysely<DB>, eventID: number, price: number, currency: string): Promise<void> {
  await db
    .insertInto('eventTicket')
    .values({ eventID, price, currency })
    .onConflict((oc) => oc.column('eventID').doUpdateSet({ price, currency }))
    .execute();
}

/** Counts one use, unless the limit was reached meanwhile: one conditional update, so concurrent uses never pass it. */
export async function useCoupon(db: Kysely<DB>, c: CouponRow): Promise<boolean> {
  const r = await db
    .updateTable('coupon')
    .set((e) => ({ used: e('used', '+', 1) }))
    .where('couponID', '=', c.couponID)
    .where((e) => e.or([e('maxUses', '=', 0), e('used', '<', e.ref('maxUses'))]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setDiscount(db: Kysely<DB>, eventID: number, personID: number, discount: number): Promise<void> {
  await db
    .updateTable('eventPerson')
    .set({ discount })
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .execute();
}
