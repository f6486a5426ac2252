import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { activityRecords } from '../record.ts';
import { activityRow, copyActivity } from '../repository.ts';

/**
 * Spec §4.5: copies an activity within its event: every field (the name unchanged, so a repeated
 * session reads the same), a new activityID, the caller as creator, and its speakers, sponsors,
 * tags, lists and chains. Attendees are not copied. Answers the new record.
 */
export default defineOperation({
  name: 'activity.copy',
  summary: 'Copies an activity within its event, with its speakers, sponsors, tags, lists and chains.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity to copy') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    const personID = ctx.caller!.personID;
    const newID = await copyActivity(ctx.db, p.activityID, personID, ctx.now);
    return activityRecords(ctx.db, [(await activityRow(ctx.db, newID))!], { personID });
  },
});
