import { defineOperation, pageOf, pageParams, q, qOpt } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { grantParam, siteReader } from '../../../../kernel/site-read.ts';
import { sectionKind, sectionsPage } from '../../../hotsite/repository.ts';

/**
 * Podium extension: the sections of an event's public website, by position, then sectionID. Public
 * like speaker.find: members of the event with their token; anyone else for a visible event, public
 * or unlocked with a grant. An event has at most 100 sections (one page with limit=100).
 */
export default defineOperation({
  name: 'event.hotsite.find',
  summary: "Lists the sections of an event's public website (public for readable events).",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    section: qOpt(sectionKind, 'only sections of this kind'),
    grant: grantParam,
    ...pageParams,
  },
  auth: { kind: 'public' },
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    await siteReader(ctx, p.eventID, p.grant);
    return sectionsPage(ctx.db, p.eventID, p.section, pageOf(p));
  },
});
