import { z } from 'zod';
import { defineOperation, b, bOpt, q, LEVEL, ANY_LEVEL, type AnyOperation } from '../../../kernel/table.ts';
import { id, text, timestamp } from '../../../schemas.ts';
import { couponWire } from '../../../../shared/wire/coupon.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { couponByCode, couponRecord, insertCoupon, newCode, setTicketPrice } from '../repository.ts';

const count = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `must be an integer from 0 to ${max}`)
    .transform(Number)
    .refine((n) => n <= max, `must be an integer from 0 to ${max}`);

/** Spec §4.8; the use limit and expiry are Podium extensions (docs/api/coupons.md). */
const couponCreate = defineOperation({
  name: 'coupon.create',
  summary: 'Creates a discount coupon of an event (admins) with a generated code; optional use limit and expiry.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    discount: b(count(100), 'percent off, 0 to 100'),
    maxUses: bOpt(count(1_000_000), 'most registrations that may use it (Podium extension; default 0: no limit)'),
    expires: bOpt(timestamp, 'Unix seconds after which it is refused (Podium extension; default 0: never)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  answer: couponWire,
  async handler(ctx, p) {
    // 50 random bits: a second draw is for a code the event has already, which practically never happens.
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await insertCoupon(ctx.db, {
        eventID: p.eventID,
        code: newCode(),
        discount: p.discount,
        maxUses: p.maxUses ?? 0,
        expires: p.expires ?? 0,
        createdAt: ctx.now,
      });
      if (row) return [couponRecord(row, ctx.now)];
    }
    throw new ApiError(503, 'could not draw a free coupon code, try again');
  },
});

/** Spec §4.8: whether a code is a coupon of the event, and whether it may be used now. */
const couponGet = defineOperation({
  name: 'coupon.get',
  summary:
    'Reads a coupon of an event by its code (any member of the event): its discount and whether it may be used now.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    code: b(text(40), 'the coupon code (case and dashes do not matter)'),
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  answer: couponWire,
  async handler(ctx, p) {
    const row = await couponByCode(ctx.db, p.eventID, p.code);
    if (!row) throw notFound('coupon');
    return [couponRecord(row, ctx.now)];
  },
});

/** Podium extension: the event's ticket price, where coupons apply (no payment is taken yet). */
const eventTicketEdit = defineOperation({
  name: 'event.ticket.edit',
  summary:
    "Sets an event's ticket price (admins; 0 for free): the registration form takes coupons where it is above 0.",
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    price: b(count(100_000_000), "in the currency's minor unit (cents); 0: free"),
    currency: bOpt(z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR'), 'ISO 4217 code'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    await setTicketPrice(ctx.db, p.eventID, p.price, p.currency ?? '');
    return [{ eventID: String(p.eventID), price: String(p.price), currency: p.currency ?? '' }];
  },
});

/** Coupons (issue 16, docs/api/coupons.md). */
export const couponOperations: readonly AnyOperation[] = [couponCreate, couponGet, eventTicketEdit];
