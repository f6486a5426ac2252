import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { bit, id, text } from '../../../schemas.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../edit.ts';
import { apiKey, fieldType, options, parseStoredOptions } from '../../form/fields.ts';
import { checkApiKeyFree, checkOptions, feedbackKind, feedbackRows } from '../../form/repository.ts';
import { fieldDescription, fieldName, fieldPosition } from './create.ts';
import { updateRow } from '../../rows.ts';

const KEYS: Record<string, EditKey> = {
  name: editKey(fieldName),
  description: editKey(fieldDescription, { clear: '' }),
  type: editKey(fieldType),
  options: editKey(
    options.transform((list) => JSON.stringify(list)),
    { clear: '[]' },
  ),
  required: editKey(bit),
  apiKey: editKey(apiKey, { clear: null }),
  position: editKey(fieldPosition),
};

/** Podium extension: edits one property of a custom field of the registration form. */
export default defineOperation({
  name: 'feedback.edit',
  summary: `Edits one property of a custom field of the registration form. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    feedbackID: q(id, 'the field'),
    key: q(text(60), 'property to edit'),
    value: bOpt(
      z.string().max(50000, 'must be at most 50000 characters'),
      'new value; empty clears description, options and apiKey',
    ),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['feedbackID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const eventID = ctx.access!.eventID!;
    const { column, value } = parseEdit(KEYS, p.key, p.value);
    const field = (await feedbackKind(ctx.db, p.feedbackID))!;
    if (column === 'type' || column === 'options') {
      const type = column === 'type' ? (value as string) : field.type;
      checkOptions(type, parseStoredOptions(column === 'options' ? (value as string) : field.options));
    }
    if (column === 'apiKey' && value !== null) await checkApiKeyFree(ctx.db, eventID, value as string, p.feedbackID);
    await updateRow(ctx.db, 'feedback', 'feedbackID', p.feedbackID, { [column]: value });
    return feedbackRows(ctx.db, eventID, p.feedbackID);
  },
});
