import { defineOperation, pageOf, pageParams, q } from '../../../../kernel/table.ts';
import { eventTagsPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';
import { grantParam, siteReader } from '../../../../kernel/site-read.ts';

/**
 * Podium extension: the event tags an event carries, by name (ignoring case), then tagID. Public for
 * readable events, like tag.find (company.event.find already filters public events by them).
 */
export default defineOperation({
  name: 'event.tag.find',
  summary: 'Lists the event tags of an event (public for readable events).',
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), grant: grantParam, ...pageParams },
  auth: { kind: 'public' },
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    await siteReader(ctx, p.eventID, p.grant);
    return eventTagsPage(ctx.db, p.eventID, pageOf(p));
  },
});
