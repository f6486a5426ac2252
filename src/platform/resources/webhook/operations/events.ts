import { z } from 'zod';
import { defineOperation, q, qOpt } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { webhookEventWire } from '../../../../shared/wire/webhook.ts';
import { deliveriesAfter } from '../repository.ts';
import { messageIDOf } from '../fields.ts';
import { signDelivery } from '../sign.ts';
import { requireWebhook, secretKey } from './access.ts';

const after = z.coerce
  .number('must be a whole number')
  .int('must be an integer')
  .min(0, 'must be at least 0')
  .max(Number.MAX_SAFE_INTEGER, 'must be a change id');
const limit = z.coerce
  .number('must be a whole number')
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(1000, 'must be at most 1000');

/**
 * Podium extension (issue 14): catch-up beyond the retry window. The payloads of the webhook's changes
 * after the change `after`, in change order, each with its Standard Webhooks headers signed now — the
 * same bodies and webhook-ids as the deliveries, so a receiver that was down resynchronises with the
 * code that takes deliveries. Deliveries are kept 30 days. A change whose payload a worker has not made
 * yet ends the page: nothing later is answered before it, so the order holds.
 */
export default defineOperation({
  name: 'webhook.events',
  summary: "Replays a webhook's signed payloads after a change id, in order (catch-up beyond the retry window).",
  methods: ['GET'],
  params: {
    webhookID: q(id, 'the webhook'),
    after: qOpt(after, 'the last change id the receiver has (default 0: from the oldest kept)'),
    limit: qOpt(limit, 'payloads per page (default 100, at most 1000)'),
  },
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  answer: webhookEventWire,
  async handler(ctx, p) {
    const row = await requireWebhook(ctx, p.webhookID);
    const key = secretKey(ctx);
    const nowMs = ctx.now * 1000;
    const rows = await deliveriesAfter(ctx.db, row.webhookID, p.after ?? 0, p.limit ?? 100);
    const ready = rows.findIndex((d) => d.payload === '');
    return (ready < 0 ? rows : rows.slice(0, ready)).map((d) => {
      const messageID = messageIDOf(row.webhookID, d.changeID, d.deliveryID);
      const h = signDelivery(key, row, messageID, d.payload, nowMs);
      return {
        changeID: String(d.changeID),
        messageID,
        timestamp: h['webhook-timestamp'],
        signature: h['webhook-signature'],
        payload: d.payload,
      };
    });
  },
});
