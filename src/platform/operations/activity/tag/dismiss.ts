import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { dismissPair, requireInEvent } from '../../../domain/relation/common.ts';

/** Spec §4.5. Removes a tag of the same event from an activity; a pair that is not bound answers the same. */
export default defineOperation({
  name: 'activity.tag.dismiss',
  summary: 'Removes a tag from an activity.',
  methods: ['GET', 'POST'],
  params: { activityID: q(id, 'the activity'), tagID: q(id, 'a tag of the event of the activity') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'tag', p.tagID);
    await dismissPair(ctx.db, 'activityTag', { activityID: p.activityID, tagID: p.tagID });
    return [{ activityID: p.activityID, tagID: p.tagID }];
  },
});
