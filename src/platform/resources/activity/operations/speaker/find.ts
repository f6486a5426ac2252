import { defineOperation, pageOf, pageParams, qOpt, ANY_LEVEL, LEVEL } from '../../../../kernel/table.ts';
import { activitySpeakersPage, linkedActivitiesPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';

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
    if (p.activityID !== undefined)
      return activitySpeakersPage(ctx.db, p.activityID, page, (ctx.access!.level & LEVEL.ADMIN) !== 0);
    const link = { table: 'activitySpeaker', column: 'speakerID' } as const;
    return linkedActivitiesPage(
      ctx.db,
      link,
      p.speakerID!,
      page,
      ctx.caller ? { personID: ctx.caller.personID } : undefined,
    );
  },
});
