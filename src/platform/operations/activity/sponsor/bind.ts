import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { bindPair, requireInEvent } from '../../../domain/relation/common.ts';

/** Spec §4.5. Links a sponsor of the same event to an activity (else 404 sponsor); binding again changes nothing. */
export default defineOperation({
  name: 'activity.sponsor.bind',
  summary: 'Adds a sponsor to an activity.',
  methods: ['GET', 'POST'],
  params: { activityID: q(id, 'the activity'), sponsorID: q(id, 'the sponsor, in the event of the activity') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'sponsor', p.sponsorID);
    await bindPair(ctx.db, 'activitySponsor', { activityID: p.activityID, sponsorID: p.sponsorID });
    return [{ activityID: p.activityID, sponsorID: p.sponsorID }];
  },
});
