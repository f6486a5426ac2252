import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../../../kernel/table.ts';
import { chainedActivitiesPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';

/**
 * Spec §4.5. The other activities that share a chain with this one (each once, by dateBegin), as
 * activity records with the caller's own enrollment state: what enrolling here would conflict with.
 */
export default defineOperation({
  name: 'activity.chain.findChainedActivities',
  summary: 'Lists the other activities sharing a chain with an activity.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    return chainedActivitiesPage(
      ctx.db,
      p.activityID,
      pageOf(p),
      ctx.caller ? { personID: ctx.caller.personID } : undefined,
    );
  },
});
