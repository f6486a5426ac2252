import { defineOperation, qOpt } from '../../table.ts';
import { id } from '../../schemas.ts';
import { requireCaller, requireCompany, requireEvent } from '../../auth/access.ts';
import { LEVEL } from '../../table.ts';

/**
 * Spec §4.3: remaining e-mail and SMS amounts of a company, or of one event. Each row is one
 * product balance: billingID, companyID, eventID, product (email|sms), amount, sent, remaining.
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
    let query = ctx.db.selectFrom('billing').selectAll();
    if (p.eventID !== undefined) {
      await requireEvent(ctx, p.eventID, LEVEL.ADMIN);
      query = query.where('eventID', '=', p.eventID);
    } else {
      await requireCompany(ctx, p.companyID!, 'admin');
      query = query.where('companyID', '=', p.companyID!).where('eventID', 'is', null);
    }
    const rows = await query.orderBy('billingID').execute();
    return rows.map((r) => ({ ...r, eventID: r.eventID ?? 0, remaining: Math.max(0, r.amount - r.sent) }));
  },
});
