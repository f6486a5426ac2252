import { defineOperation, editParams, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { webhookWire } from '../../../../shared/wire/webhook.ts';
import { updateWebhook, webhookByID } from '../repository.ts';
import { WEBHOOK_EDIT_KEYS, webhookRecord, type WebhookEditKey } from '../fields.ts';
import { checkScheme, requireWebhook } from './access.ts';

/**
 * Podium extension (issue 14), edit style (spec §1.3). Setting active=1 clears why the platform had
 * turned it off and starts a new run of failures from zero.
 */
export default defineOperation({
  name: 'webhook.edit',
  summary: 'Edits one field of a webhook. Keys: url, types, active.',
  methods: ['POST'],
  params: { webhookID: q(id, 'the webhook'), ...editParams(2000, 'new value (types: empty for every type)') },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  answer: webhookWire,
  async handler(ctx, p) {
    const row = await requireWebhook(ctx, p.webhookID);
    if (!Object.hasOwn(WEBHOOK_EDIT_KEYS, p.key)) throw badRequest(`key ${p.key.slice(0, 60)} cannot be edited`);
    const key = p.key as WebhookEditKey;
    const parsed = WEBHOOK_EDIT_KEYS[key].safeParse(p.value ?? '');
    if (!parsed.success) throw badRequest(`value ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    if (key === 'url') checkScheme(ctx, parsed.data as string);
    const patch =
      key === 'active'
        ? parsed.data === 1
          ? { active: 1, disabledReason: '', failingSince: null }
          : { active: 0, disabledReason: '' }
        : { [key]: parsed.data };
    await updateWebhook(ctx.db, row.webhookID, patch);
    return [webhookRecord((await webhookByID(ctx.db, row.webhookID))!, ctx.now * 1000)];
  },
});
