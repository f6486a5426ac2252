import { defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { tagByID } from '../../domain/tag/repository.ts';

/**
 * Podium extension: removes a tag; the activities and attendees that carried it lose it. Answers the
 * removed record.
 */
export default defineOperation({
  name: 'tag.remove',
  summary: 'Removes a tag from its event.',
  methods: ['GET'],
  params: { tagID: q(id, 'the tag') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['tagID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = (await tagByID(ctx.db, p.tagID))!;
    await ctx.db.deleteFrom('tag').where('tagID', '=', p.tagID).execute();
    return [row];
  },
});
