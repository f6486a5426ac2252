import { defineOperation, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { removeWebhook } from '../repository.ts';
import { requireWebhook } from './access.ts';

/** Podium extension (issue 14): removes a webhook with its deliveries; deliveries not yet made are dropped. */
export default defineOperation({
  name: 'webhook.remove',
  summary: 'Removes a webhook and its delivery log.',
  methods: ['GET', 'POST'],
  params: { webhookID: q(id, 'the webhook') },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = await requireWebhook(ctx, p.webhookID);
    await removeWebhook(ctx.db, row.webhookID);
    return [{ webhookID: String(row.webhookID) }];
  },
});
