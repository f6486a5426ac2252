import { defineOperation, qOpt } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { requireCaller, requireCompany, requireEvent } from '../../../auth/access.ts';
import { LEVEL } from '../../../kernel/table.ts';
import { balances, companyBalances } from '../repository.ts';

/**
 * Spec §4.3: remaining e-mail and SMS amounts of a company, or of one event. Each row is one
 * product balance: billingID, companyID, eventID, product (email|sms), amount, sent, remaining. `sent`
 * counts what actually went out (docs/messaging.md "Balances"); a company with no row of a product shows
 * the platform's default allowance as billingID 0.
 */
export default defineOperation({
  name: 'billing.find',
  summary: 'Remaining e-mail / SMS amounts of a company or an event.',
  methods: ['GET'],
  params: { companyID: qOpt(id, 'the company'), eventID: qOpt(id, 'the event') },
  variants: [['companyID'], ['eventID']],
  auth: { kind: 'token' },
  writes: false,
  async handler(ctx, p) {
    requireCaller(ctx);
    if (p.eventID !== undefined) {
      await requireEvent(ctx, p.eventID, LEVEL.ADMIN);
      return balances(ctx.db, { eventID: p.eventID });
    }
    await requireCompany(ctx, p.companyID!, 'admin');
    return companyBalances(ctx.db, p.companyID!, {
      email: ctx.config.EMAIL_ALLOWANCE,
      sms: ctx.config.SMS_ALLOWANCE,
    });
  },
});
