import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { dismissPair, requireInEvent } from '../../../domain/relation/common.ts';

/** Spec §4.5. Unlinks a list from an activity; a pair that is not linked answers the same (idempotent). */
export default defineOperation({
  name: 'activity.list.dismiss',
  summary: 'Unlinks a list from an activity.',
  methods: ['GET', 'POST'],
  params: { listID: q(id, 'the list'), activityID: q(id, 'the activity, in the event of the list') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'activity', p.activityID);
    await dismissPair(ctx.db, 'activityList', { activityID: p.activityID, listID: p.listID });
    return [{ activityID: p.activityID, listID: p.listID }];
  },
});
