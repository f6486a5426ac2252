import { defineOperation, pageOf, pageParams, qOpt, ANY_LEVEL, LEVEL } from '../../../../kernel/table.ts';
import { activitySponsorsPage, linkedActivitiesPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';
import { requireInEvent } from '../../../relation/common.ts';

/**
 * Spec §4.5, two forms. With activityID: the activity's sponsors (spec §2.5 sponsor fields plus
 * tier, tierRank; by tierRank then name; `telephone` and `email` only for event admins, else ""). With eventID and sponsorID: the sponsor's activities as
 * activity records (by dateBegin; a sponsor of another event is 404). activityID wins when both are given.
 */
export default defineOperation({
  name: 'activity.sponsor.find',
  summary: 'Lists the sponsors of an activity, or the activities of a sponsor.',
  methods: ['GET'],
  params: {
    activityID: qOpt(id, 'the activity: list its sponsors'),
    eventID: qOpt(id, 'the event of the sponsor, with sponsorID'),
    sponsorID: qOpt(id, 'the sponsor: list its activities (with eventID)'),
    ...pageParams,
  },
  variants: [['activityID'], ['eventID', 'sponsorID']],
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID', 'eventID'] },
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    if (p.activityID !== undefined)
      return activitySponsorsPage(ctx.db, p.activityID, page, (ctx.access!.level & LEVEL.ADMIN) !== 0);
    await requireInEvent(ctx.db, ctx.access!.eventID!, 'sponsor', p.sponsorID!);
    const link = { table: 'activitySponsor', column: 'sponsorID' } as const;
    return linkedActivitiesPage(
      ctx.db,
      link,
      p.sponsorID!,
      page,
      ctx.caller ? { personID: ctx.caller.personID } : undefined,
    );
  },
});
