import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ApiError, badRequest, conflict } from '../../errors.ts';
import { couponByCode, refusal, setDiscount, ticketPrice, useCoupon } from './repository.ts';

/**
 * A registration's coupon (form.respondRegistration B coupon): only where the event has a ticket price;
 * counts one use and stores its discount on the enrollment, in the registration's transaction, so a
 * refused coupon registers nobody. No payment is taken (no payment provider yet).
 */
export async function redeem(db: Kysely<DB>, eventID: number, personID: number, code: string, now: number) {
  if ((await ticketPrice(db, eventID)) === 0) throw badRequest('coupon does not apply: the event has no ticket price');
  const coupon = await couponByCode(db, eventID, code);
  if (!coupon) throw new ApiError(404, 'coupon not found');
  const why = refusal(coupon, now);
  if (why !== '' || !(await useCoupon(db, coupon))) throw conflict(`coupon is ${why || 'used up'}`);
  await setDiscount(db, eventID, personID, coupon.discount);
}
