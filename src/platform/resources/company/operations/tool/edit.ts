import { defineOperation, b, q } from '../../../../kernel/table.ts';
import { bit, id, text } from '../../../../schemas.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../../edit.ts';
import { toolRow } from './get.ts';
import { updateRow } from '../../../rows.ts';

/**
 * Tool switches a company admin may edit (spec §2.6 Company tool edit keys), and autoApproveComment
 * (Podium extension: whether new comments show at once, docs/api/comments.md).
 */
export const TOOL_EDIT_KEYS = [
  'feedback', 'presence', 'material', 'question', 'comment', 'quiz', 'meeting', 'aboutUs', 'speaker', 'networking',
  'shareOnlyEventDay', 'searchBar', 'socialALogin', 'socialBLogin', 'confirmationEmail', 'photo', 'quickMenu',
  'multipleEvents', 'autoApproveComment',
] as const; // prettier-ignore
const KEYS: Record<string, EditKey> = Object.fromEntries(TOOL_EDIT_KEYS.map((k) => [k, editKey(bit)]));

export default defineOperation({
  name: 'company.tool.edit',
  summary: `Turns one company tool on (1) or off (0). Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: { companyID: q(id, 'the company'), key: q(text(60), 'tool switch'), value: b(bit, '0 or 1') },
  auth: { kind: 'company', role: 'admin' },
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(KEYS, p.key, String(p.value));
    await updateRow(ctx.db, 'companyTool', 'companyID', p.companyID, { [column]: value });
    return toolRow(ctx.db, p.companyID);
  },
});
