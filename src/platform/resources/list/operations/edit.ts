import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../edit.ts';
import { relationName } from '../../relation/common.ts';
import { listByID, renameList } from '../repository.ts';

const KEYS: Record<string, EditKey> = { name: editKey(relationName) };

/** Podium extension: edits one field of a list (edit style, spec §1.3). */
export default defineOperation({
  name: 'list.edit',
  summary: `Edits one list field. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    listID: q(id, 'the list'),
    key: q(text(60), 'field to edit'),
    value: bOpt(z.string().max(1000, 'must be at most 1000 characters'), 'new value'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { value } = parseEdit(KEYS, p.key, p.value);
    await renameList(ctx.db, p.listID, value as string);
    return listByID(ctx.db, p.listID);
  },
});
