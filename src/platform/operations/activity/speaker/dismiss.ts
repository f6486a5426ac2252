import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { dismissPair, requireInEvent } from '../../../domain/relation/common.ts';

/** Spec §4.5. Removes a speaker from an activity; a pair that is not bound answers the same (idempotent). */
export default defineOperation({
  name: 'activity.speaker.dismiss',
  summary: 'Removes a speaker from an activity.',
  methods: ['GET', 'POST'],
  params: { activityID: q(id, 'the activity'), speakerID: q(id, 'the speaker, in the event of the activity') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'speaker', p.speakerID);
    await dismissPair(ctx.db, 'activitySpeaker', { activityID: p.activityID, speakerID: p.speakerID });
    return [{ activityID: p.activityID, speakerID: p.speakerID }];
  },
});
