import { defineOperation, editParams, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { webhookWire } from '../../../../shared/wire/webhook.ts';
import { updateWebhook, webhookByID } from '../repository.ts';
import { WEBHOOK_EDIT_KEYS, webhookRecord } from '../fields.ts';
import { checkScheme, checkTypes, requireWebhook } from './access.ts';

/**
 * Podium extension (issue 14), edit style (spec §1.3). Setting active=1 clears why the platform had
 * turned it off and starts a new run of failures from zero.
 */
export default defineOperation({
  name: 'webhook.edit',
  summary: `Edits one field of a webhook. Keys: ${keyList(WEBHOOK_EDIT_KEYS)}.`,
  methods: ['POST'],
  params: { webhookID: q(id, 'the webhook'), ...editParams(2000, 'new value (types: empty for every type)') },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  answer: webhookWire,
  async handler(ctx, p) {
    const row = await requireWebhook(ctx, p.webhookID);
    const { column, value } = parseEdit(WEBHOOK_EDIT_KEYS, p.key, p.value);
    if (column === 'url') checkScheme(ctx, value as string);
    if (column === 'types') await checkTypes(value as string);
    const patch =
      column === 'active'
        ? value === 1
          ? { active: 1, disabledReason: '', failingSince: null }
          : { active: 0, disabledReason: '' }
        : { [column]: value };
    await updateWebhook(ctx.db, row.webhookID, patch);
    return [webhookRecord((await webhookByID(ctx.db, row.webhookID))!, ctx.now * 1000)];
  },
});
