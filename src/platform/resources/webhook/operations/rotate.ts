import { defineOperation, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { webhookSecretWire } from '../../../../shared/wire/webhook.ts';
import { updateWebhook, webhookByID } from '../repository.ts';
import { webhookRecord } from '../fields.ts';
import { newSecret, sealSecret } from '../secret.ts';
import { requireWebhook, secretKey } from './access.ts';

/** How long the previous secret signs beside the new one: receivers switch within it. */
export const ROTATION_MS = 24 * 3600 * 1000;

/**
 * Podium extension (issue 14): a new signing secret, answered once. For 24 h every delivery carries
 * two signatures (Standard Webhooks lists them space-separated), one per secret, so a receiver that
 * still holds the old secret keeps verifying until it takes the new one.
 */
export default defineOperation({
  name: 'webhook.rotate',
  summary: 'Gives a webhook a new signing secret (shown only here); the old one signs too for 24 h.',
  methods: ['GET', 'POST'],
  params: { webhookID: q(id, 'the webhook') },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  answer: webhookSecretWire,
  async handler(ctx, p) {
    const row = await requireWebhook(ctx, p.webhookID);
    const secret = newSecret();
    const nowMs = ctx.now * 1000;
    await updateWebhook(ctx.db, row.webhookID, {
      secret: sealSecret(secretKey(ctx), secret),
      oldSecret: row.secret,
      oldSecretUntil: nowMs + ROTATION_MS,
    });
    return [{ ...webhookRecord((await webhookByID(ctx.db, row.webhookID))!, nowMs), secret }];
  },
});
