import { defineOperation, pageOf, pageParams, q } from '../../../../kernel/table.ts';
import { activityEventID, activityTagsPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';
import { notFound } from '../../../../errors.ts';
import { grantParam, objectReader } from '../../../../kernel/site-read.ts';

/**
 * Spec §4.5, two forms: with tokenID (a member of the event) or without (public). The activity's
 * event must be readable (grant.ts readableEvent): a member or company person sees it whatever its
 * state; anyone else only in a visible event, and in a private one with the `grant` of
 * event.checkAccessCode (Podium extension). A hidden event answers 404 activity (objectReader).
 */
export default defineOperation({
  name: 'activity.tag.find',
  summary: 'Lists the tags of an activity (public for visible events).',
  methods: ['GET'],
  params: {
    activityID: q(id, 'the activity'),
    grant: grantParam,
    ...pageParams,
  },
  auth: { kind: 'public' },
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const eventID = await activityEventID(ctx.db, p.activityID);
    if (eventID === undefined) throw notFound('activity');
    await objectReader(ctx, 'activity', eventID, p.grant);
    return activityTagsPage(ctx.db, p.activityID, pageOf(p));
  },
});
