import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { bindPair, requireInEvent } from '../../../domain/relation/common.ts';

/**
 * Spec §4.5. Puts an activity in a chain of the same event (else 404 activity). Binding a pair that
 * is already bound answers the same pair and changes nothing (idempotent).
 */
export default defineOperation({
  name: 'activity.chain.bind',
  summary: 'Adds an activity to a chain of its event.',
  methods: ['GET', 'POST'],
  params: { chainID: q(id, 'the chain'), activityID: q(id, 'the activity, in the event of the chain') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['chainID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'activity', p.activityID);
    await bindPair(ctx.db, 'activityChain', { chainID: p.chainID, activityID: p.activityID });
    return [{ chainID: p.chainID, activityID: p.activityID }];
  },
});
