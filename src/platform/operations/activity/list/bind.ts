import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { bindPair, requireInEvent } from '../../../domain/relation/common.ts';

/**
 * Spec §4.5. Limits an activity to the members of a list of the same event (else 404 activity); an
 * activity with several lists admits the members of any of them. Binding again changes nothing.
 */
export default defineOperation({
  name: 'activity.list.bind',
  summary: 'Limits an activity to the members of a list (one of its lists).',
  methods: ['GET', 'POST'],
  params: { listID: q(id, 'the list'), activityID: q(id, 'the activity, in the event of the list') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'activity', p.activityID);
    await bindPair(ctx.db, 'activityList', { activityID: p.activityID, listID: p.listID });
    return [{ activityID: p.activityID, listID: p.listID }];
  },
});
