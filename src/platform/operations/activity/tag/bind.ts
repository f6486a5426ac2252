import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { bindPair, eventOfCall } from '../../../domain/relation/common.ts';

/**
 * Spec §4.5. Tags an activity with a tag of its event: a tag of another event or a company-wide tag
 * is 404 tag; a tag of the event of another kind (e.g. attendee tags) is 400. Binding again changes nothing.
 */
export default defineOperation({
  name: 'activity.tag.bind',
  summary: 'Tags an activity with an activity tag of its event.',
  methods: ['GET', 'POST'],
  params: { activityID: q(id, 'the activity'), tagID: q(id, 'an activity tag of the event of the activity') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    const tag = await ctx.db
      .selectFrom('tag')
      .select(['eventID', 'kind'])
      .where('tagID', '=', p.tagID)
      .executeTakeFirst();
    if (!tag || tag.eventID !== eventOfCall(ctx)) throw notFound('tag');
    if (tag.kind !== 'activity') throw badRequest('tagID must be an activity tag');
    await bindPair(ctx.db, 'activityTag', { activityID: p.activityID, tagID: p.tagID });
    return [{ activityID: p.activityID, tagID: p.tagID }];
  },
});
