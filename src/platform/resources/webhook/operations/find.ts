import { defineOperation, pageOf, pageParams, qOpt } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { webhookWire } from '../../../../shared/wire/webhook.ts';
import { webhooksOf } from '../repository.ts';
import { webhookRecord } from '../fields.ts';
import { requireTarget } from './access.ts';

/** Podium extension (issue 14): a company's webhooks (company admins), or one event's (its admins). */
export default defineOperation({
  name: 'webhook.find',
  summary: "Lists a company's webhooks, or one event's.",
  methods: ['GET'],
  params: {
    companyID: qOpt(id, 'the company: all its webhooks'),
    eventID: qOpt(id, "the event: only the event's webhooks"),
    ...pageParams,
  },
  variants: [['companyID'], ['eventID']],
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  answer: webhookWire,
  async handler(ctx, p) {
    const target = await requireTarget(ctx, p);
    const nowMs = ctx.now * 1000;
    const page = await webhooksOf(ctx.db, target.companyID, target.eventID ?? undefined, pageOf(p));
    const shape = (rows: Parameters<typeof webhookRecord>[0][]) => rows.map((r) => webhookRecord(r, nowMs));
    return Array.isArray(page) ? shape(page) : { rows: shape(page.rows), total: page.total };
  },
});
