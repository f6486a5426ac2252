import { z } from 'zod';
import { id } from './values.ts';

/** A coupon as coupon.create / coupon.get answer it (docs/api/coupons.md). */
export const couponWire = z.object({
  couponID: id,
  eventID: id,
  /** 10 characters of Crockford's base32 (50 random bits); read case-insensitively, I/L as 1 and O as 0. */
  code: z.string(),
  /** Percent off, 0–100. */
  discount: z.string(),
  used: z.string(),
  /** Most uses; '0': no limit. */
  maxUses: z.string(),
  /** Unix seconds after which it is refused; '0': never. */
  expires: z.string(),
  /** '1' while it may be used. */
  valid: z.string(),
  /** Why not valid: '' , `expired`, `used up`. */
  reason: z.string(),
});
export type Coupon = z.infer<typeof couponWire>;
