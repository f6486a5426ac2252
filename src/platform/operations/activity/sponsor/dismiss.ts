import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { dismissPair, requireInEvent } from '../../../domain/relation/common.ts';

/** Spec §4.5. Unlinks a sponsor from an activity; a pair that is not bound answers the same (idempotent). */
export default defineOperation({
  name: 'activity.sponsor.dismiss',
  summary: 'Removes a sponsor from an activity.',
  methods: ['GET', 'POST'],
  params: { activityID: q(id, 'the activity'), sponsorID: q(id, 'the sponsor, in the event of the activity') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'sponsor', p.sponsorID);
    await dismissPair(ctx.db, 'activitySponsor', { activityID: p.activityID, sponsorID: p.sponsorID });
    return [{ activityID: p.activityID, sponsorID: p.sponsorID }];
  },
});
