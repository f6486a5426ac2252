import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../../../kernel/table.ts';
import { chainsOfActivityPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';

/** Spec §4.5. The chains an activity belongs to, as chain.find shows them. */
export default defineOperation({
  name: 'activity.chain.find',
  summary: 'Lists the chains of an activity.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    return chainsOfActivityPage(ctx.db, p.activityID, pageOf(p));
  },
});
