import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../table.ts';
import { id, text } from '../../schemas.ts';
import { conflict } from '../../errors.ts';
import { keyList, parseEdit } from '../../edit.ts';
import { checkTagName, tagByID, tagInUse, TAG_KEYS } from '../../domain/tag/repository.ts';

/**
 * Podium extension: edits one field of a tag. `kind` may change only while no activity or attendee
 * carries the tag (409 otherwise): an attendee type must not turn into a track under its holders.
 */
export default defineOperation({
  name: 'tag.edit',
  summary: `Edits one tag field. Keys: ${keyList(TAG_KEYS)}.`,
  methods: ['POST'],
  params: {
    tagID: q(id, 'the tag'),
    key: q(text(60), 'field to edit'),
    value: bOpt(z.string().max(1000, 'must be at most 1000 characters'), 'new value; empty clears color'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['tagID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(TAG_KEYS, p.key, p.value);
    const tag = (await tagByID(ctx.db, p.tagID))!;
    if (column === 'kind' && value !== tag.kind && (await tagInUse(ctx.db, p.tagID)))
      throw conflict('kind cannot change while activities or attendees carry the tag');
    if (column === 'name' || column === 'kind') {
      const next = { name: tag.name, kind: tag.kind, [column]: value as string };
      await checkTagName(ctx.db, tag.eventID!, next.kind, next.name, p.tagID);
    }
    await ctx.db
      .updateTable('tag')
      .set({ [column]: value })
      .where('tagID', '=', p.tagID)
      .execute();
    return [(await tagByID(ctx.db, p.tagID))!];
  },
});
