import { defineOperation, pageOf, pageParams, qOpt, ANY_LEVEL, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { linkedActivities, paged } from '../../../domain/relation/common.ts';
import { activitySpeakers } from '../../../domain/relation/records.ts';

/**
 * Spec §4.5, two forms. With activityID: the activity's speakers (spec §2.5 speaker fields, by
 * position then name; `email` only for event admins, else ""). With speakerID: the speaker's
 * activities as activity records (by dateBegin). When both are given the activityID form applies.
 */
export default defineOperation({
  name: 'activity.speaker.find',
  summary: 'Lists the speakers of an activity, or the activities of a speaker.',
  methods: ['GET'],
  params: {
    activityID: qOpt(id, 'the activity: list its speakers'),
    speakerID: qOpt(id, 'the speaker: list their activities'),
    ...pageParams,
  },
  variants: [['activityID'], ['speakerID']],
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID', 'speakerID'] },
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    if (p.activityID !== undefined) {
      const activityID = p.activityID;
      const admin = (ctx.access!.level & LEVEL.ADMIN) !== 0;
      return paged(
        page,
        async (limit, offset) =>
          (
            await activitySpeakers(ctx.db, activityID)
              .orderBy('speaker.position')
              .orderBy('speaker.name')
              .orderBy('speaker.speakerID')
              .limit(limit)
              .offset(offset)
              .execute()
          ).map((s) => (admin ? s : { ...s, email: '' })),
        async () =>
          (
            await ctx.db
              .selectFrom('activitySpeaker')
              .select((e) => e.fn.countAll<number>().as('n'))
              .where('activityID', '=', activityID)
              .executeTakeFirstOrThrow()
          ).n,
      );
    }
    const speakerID = p.speakerID!;
    return linkedActivities(ctx, page, { table: 'activitySpeaker', column: 'speakerID' }, speakerID);
  },
});
