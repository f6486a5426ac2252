import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../../../kernel/table.ts';
import { listsOfActivityPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';

/**
 * Spec §4.5. The lists an activity is limited to (activityID, listID, eventID, name), by name; no
 * members or counts, which only admins read (list.get). Empty: the activity is open to everyone.
 */
export default defineOperation({
  name: 'activity.list.find',
  summary: 'Lists the lists an activity is limited to.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    return listsOfActivityPage(ctx.db, p.activityID, pageOf(p));
  },
});
