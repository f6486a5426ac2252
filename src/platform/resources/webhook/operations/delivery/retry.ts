import { defineOperation, q } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { conflict, notFound } from '../../../../errors.ts';
import { deliveryByID, requeueDelivery } from '../../repository.ts';
import { DELIVER_JOB } from '../../sign.ts';
import { requireWebhook } from '../access.ts';

/** A retry of a delivery of a webhook that is off (turned off by its admins, a 410 or 5 days of failures). */
export const RETRY_OFF =
  'the webhook is off: turn it on (webhook.edit key active, value 1) before retrying its deliveries';

/**
 * Podium extension (issue 14): sends a delivery again — one that failed after its last retry, or one
 * delivered that the receiver lost —, with a new run of retries. A pending one is on its way already.
 */
export default defineOperation({
  name: 'webhook.delivery.retry',
  summary: 'Sends a failed (or delivered) delivery again, with a new run of retries.',
  methods: ['GET', 'POST'],
  params: { deliveryID: q(id, 'the delivery') },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const delivery = await deliveryByID(ctx.db, p.deliveryID);
    if (!delivery) throw notFound('delivery');
    let webhook;
    try {
      webhook = await requireWebhook(ctx, delivery.webhookID);
    } catch (err) {
      throw (err as { status?: number }).status === 404 ? notFound('delivery') : err;
    }
    // Sent now, it would fail at once ("the webhook is turned off"): said before, with the way out.
    if (!webhook.active) throw conflict(RETRY_OFF);
    if (delivery.state === 'pending') throw conflict('the delivery is pending already');
    const nowMs = ctx.now * 1000;
    await requeueDelivery(ctx.db, delivery.deliveryID, nowMs);
    // The key names this run (its start): an earlier run's finished job does not hold it.
    await ctx.jobs.add(
      ctx.db,
      DELIVER_JOB,
      { deliveryID: delivery.deliveryID, attempt: 1 },
      { key: `${delivery.deliveryID}.1.${nowMs}` },
    );
    return [{ deliveryID: String(delivery.deliveryID), state: 'pending' }];
  },
});
