import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { deleteRow } from '../../rows.ts';
import { activityRecords } from '../record.ts';
import { activityRow } from '../repository.ts';

/**
 * Spec §4.5: removes an activity with its relations (attendees, speakers, sponsors, tags, lists,
 * chains, by the store's cascades). Answers the record as it was.
 */
export default defineOperation({
  name: 'activity.remove',
  summary: 'Removes an activity and its relations; answers the removed record.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    const row = (await activityRow(ctx.db, p.activityID))!;
    const [record] = await activityRecords(ctx.db, [row]);
    await deleteRow(ctx.db, 'activity', 'activityID', p.activityID);
    return [record];
  },
});
