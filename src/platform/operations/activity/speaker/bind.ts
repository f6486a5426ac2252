import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { bindPair, requireInEvent } from '../../../domain/relation/common.ts';

/** Spec §4.5. Adds a speaker of the same event to an activity (else 404 speaker); binding again changes nothing. */
export default defineOperation({
  name: 'activity.speaker.bind',
  summary: 'Adds a speaker to an activity.',
  methods: ['GET', 'POST'],
  params: { activityID: q(id, 'the activity'), speakerID: q(id, 'the speaker, in the event of the activity') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    await requireInEvent(ctx, 'speaker', p.speakerID);
    await bindPair(ctx.db, 'activitySpeaker', { activityID: p.activityID, speakerID: p.speakerID });
    return [{ activityID: p.activityID, speakerID: p.speakerID }];
  },
});
