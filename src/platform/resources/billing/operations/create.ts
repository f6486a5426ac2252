import { z } from 'zod';
import { b, defineOperation, qOpt } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { requireCaller } from '../../../auth/access.ts';
import { notFound } from '../../../errors.ts';
import { addBalance, balances, billingOwner, claimAllowance } from '../repository.ts';

/**
 * Podium extension for platform operators (docs/messaging.md "Balances"): adds e-mails or SMS to a
 * company (Q companyID: a row with no event, any of its events draws on it) or to one event (Q eventID:
 * only that event's messages draw on it, before the company's). A credit is a new billing row, never an
 * edit of one: billing.find keeps showing what each row was bought for and what consumed it. Answers the
 * new row as billing.find shows it. There is no price and no payment here: the operator records what
 * was sold elsewhere.
 */
export default defineOperation({
  name: 'billing.create',
  summary: 'Adds an e-mail or SMS balance to a company or one of its events (platform operators).',
  methods: ['POST'],
  params: {
    companyID: qOpt(id, 'the company (a balance every event of it draws on)'),
    eventID: qOpt(id, 'one event (a balance only it draws on, before its company’s)'),
    product: b(z.enum(['email', 'sms'], 'must be email or sms'), 'email or sms'),
    amount: b(
      z.coerce
        .number('must be a whole number')
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(100_000_000, 'must be at most 100000000'),
      'messages added (1 to 100,000,000)',
    ),
  },
  variants: [['companyID'], ['eventID']],
  auth: { kind: 'operator' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    requireCaller(ctx);
    const owner = await billingOwner(
      ctx.db,
      p.eventID !== undefined ? { eventID: p.eventID } : { companyID: p.companyID! },
    );
    if (!owner) throw notFound(p.eventID !== undefined ? 'event' : 'company');
    // The default allowance first, when the company has not started it: a credit adds to it.
    const allowance = p.product === 'email' ? ctx.config.EMAIL_ALLOWANCE : ctx.config.SMS_ALLOWANCE;
    await claimAllowance(ctx.db, owner.companyID, p.product, allowance);
    const billingID = await addBalance(ctx.db, owner, p.product, p.amount);
    const rows = await balances(ctx.db, owner.eventID !== undefined ? { eventID: owner.eventID } : { companyID: owner.companyID }); // prettier-ignore
    return rows.filter((r) => r.billingID === billingID);
  },
});
