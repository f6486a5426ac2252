import { defineOperation, b, bOpt, qOpt } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { webhookSecretWire } from '../../../../shared/wire/webhook.ts';
import { insertWebhook } from '../repository.ts';
import { webhookRecord, webhookTypes, webhookUrl } from '../fields.ts';
import { newSecret, sealSecret } from '../secret.ts';
import { checkScheme, checkTypes, requireTarget, secretKey } from './access.ts';

/**
 * Podium extension (issue 14, docs/webhooks.md): registers a webhook for a company's changes, or one
 * event's. The answer holds the signing secret; no other answer ever shows it again.
 */
export default defineOperation({
  name: 'webhook.create',
  summary: 'Registers a webhook (company or event admins); the answer holds its signing secret, shown only here.',
  methods: ['POST'],
  params: {
    companyID: qOpt(id, 'the company: every change of its events'),
    eventID: qOpt(id, 'the event: only its changes'),
    url: b(webhookUrl, 'where deliveries are POSTed (https)'),
    types: bOpt(webhookTypes, 'operation names separated by commas (default: every type)'),
  },
  variants: [['companyID'], ['eventID']],
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  answer: webhookSecretWire,
  async handler(ctx, p) {
    const target = await requireTarget(ctx, p);
    checkScheme(ctx, p.url);
    await checkTypes(p.types ?? '');
    const secret = newSecret();
    const nowMs = ctx.now * 1000;
    const row = await insertWebhook(ctx.db, {
      ...target,
      personID: ctx.caller!.personID,
      url: p.url,
      types: p.types ?? '',
      active: 1,
      secret: sealSecret(secretKey(ctx), secret),
      createdAt: nowMs,
    });
    return [{ ...webhookRecord(row, nowMs), secret }];
  },
});
