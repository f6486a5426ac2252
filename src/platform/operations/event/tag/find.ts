import { defineOperation, pageOf, pageParams, q } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { lowerOf } from '../../../domain/hotsite/content.ts';
import { grantParam, siteReader } from '../../site-read.ts';
import { paged } from '../../../domain/relation/common.ts';
import { tagsOfEvent } from '../../../domain/tag/company.ts';

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
    return paged(
      pageOf(p),
      (limit, offset) =>
        tagsOfEvent(ctx.db, p.eventID)
          .orderBy(lowerOf('tag.name'))
          .orderBy('tag.tagID')
          .limit(limit)
          .offset(offset)
          .execute(),
      async () =>
        (
          await ctx.db
            .selectFrom('eventTag')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('eventID', '=', p.eventID)
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
