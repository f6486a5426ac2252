import { defineOperation, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { insertDelivery } from '../repository.ts';
import { DELIVER_JOB, pingBody } from '../sign.ts';
import { messageIDOf } from '../fields.ts';
import { requireWebhook } from './access.ts';

/**
 * Podium extension (issue 14): a `ping` delivery now — signed, logged and retried like any other — so
 * an organizer can check a receiver. It goes out from a worker, after this call's commit.
 */
export default defineOperation({
  name: 'webhook.test',
  summary: 'Sends a ping delivery to a webhook (from a worker, moments after the answer).',
  methods: ['GET', 'POST'],
  params: { webhookID: q(id, 'the webhook') },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = await requireWebhook(ctx, p.webhookID);
    const nowMs = ctx.now * 1000;
    const deliveryID = (await insertDelivery(ctx.db, {
      webhookID: row.webhookID,
      changeID: null,
      type: 'ping',
      payload: pingBody(row, nowMs),
      createdAt: nowMs,
      nextAt: nowMs,
    }))!;
    await ctx.jobs.add(ctx.db, DELIVER_JOB, { deliveryID, attempt: 1 }, { key: `${deliveryID}.1` });
    return [
      {
        webhookID: String(row.webhookID),
        deliveryID: String(deliveryID),
        messageID: messageIDOf(row.webhookID, null, deliveryID),
      },
    ];
  },
});
