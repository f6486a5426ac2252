import { defineOperation, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { webhookWire } from '../../../../shared/wire/webhook.ts';
import { webhookRecord } from '../fields.ts';
import { requireWebhook } from './access.ts';

/** Podium extension (issue 14): one webhook, with why the platform turned it off, if it did. */
export default defineOperation({
  name: 'webhook.get',
  summary: 'Reads one webhook (its admins): address, types, whether active and why not, failing since when.',
  methods: ['GET'],
  params: { webhookID: q(id, 'the webhook') },
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  answer: webhookWire,
  handler: async (ctx, p) => [webhookRecord(await requireWebhook(ctx, p.webhookID), ctx.now * 1000)],
});
