import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { dismissPair, requireInEvent } from '../../../domain/relation/common.ts';

/** Spec §4.5. Takes an activity out of a chain; a pair that is not bound answers the same (idempotent). */
export default defineOperation({
  name: 'activity.chain.dismiss',
  summary: 'Removes an activity from a chain.',
  methods: ['GET', 'POST'],
  params: { chainID: q(id, 'the chain'), activityID: q(id, 'the activity, in the event of the chain') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['chainID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'activity', p.activityID);
    await dismissPair(ctx.db, 'activityChain', { chainID: p.chainID, activityID: p.activityID });
    return [{ chainID: p.chainID, activityID: p.activityID }];
  },
});
