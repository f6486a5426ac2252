import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { webhookDeliveryWire } from '../../../../../shared/wire/webhook.ts';
import { deliveriesOf, type DeliveryRow, type AttemptRow } from '../../repository.ts';
import { messageIDOf, seconds } from '../../fields.ts';
import { requireWebhook } from '../access.ts';

const selection = z.enum(['all', 'failed', 'pending', 'held'], 'must be all, failed, pending or held');

const record = (d: DeliveryRow & { attemptList: AttemptRow[] }) => ({
  deliveryID: String(d.deliveryID),
  webhookID: String(d.webhookID),
  changeID: d.changeID === null ? '' : String(d.changeID),
  messageID: messageIDOf(d.webhookID, d.changeID, d.deliveryID),
  type: d.type,
  state: d.state,
  attempts: String(d.attempts),
  // Kept in ms, sent as Unix seconds like every time of the API (the spec's Date Time).
  nextAt: seconds(d.nextAt),
  createdAt: seconds(d.createdAt),
  attemptList: d.attemptList.map((a) => ({
    at: seconds(a.at),
    status: String(a.status),
    latencyMs: String(a.latencyMs),
    response: a.response,
  })),
});

/** Podium extension (issue 14): a webhook's deliveries, newest first, each with every attempt (kept 30 days). */
export default defineOperation({
  name: 'webhook.delivery.find',
  summary: "Lists a webhook's deliveries (newest first) with each attempt's time, status, latency and answer.",
  methods: ['GET'],
  params: {
    webhookID: q(id, 'the webhook'),
    selection: qOpt(selection, 'all (default), failed, pending or held (made while the webhook was off)'),
    ...pageParams,
  },
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  answer: webhookDeliveryWire,
  async handler(ctx, p) {
    const row = await requireWebhook(ctx, p.webhookID);
    const page = await deliveriesOf(ctx.db, row.webhookID, p.selection ?? 'all', pageOf(p));
    return Array.isArray(page) ? page.map(record) : { rows: page.rows.map(record), total: page.total };
  },
});
