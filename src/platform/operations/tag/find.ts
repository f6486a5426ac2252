import { defineOperation, pageOf, pageParams, q, qOpt } from '../../table.ts';
import { id } from '../../schemas.ts';
import { lowerOf } from '../../domain/hotsite/content.ts';
import { grantParam, siteReader } from '../site-read.ts';
import { tagKind, tagQuery, TAG_KINDS } from '../../domain/tag/repository.ts';

/**
 * Podium extension: the tags of an event, by name. Public like speaker.find, so the site can build
 * its filters (kind=activity) and the registration form its attendee types (kind=attendee).
 */
export default defineOperation({
  name: 'tag.find',
  summary: 'Lists the tags of an event (public for readable events).',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    kind: qOpt(tagKind, `only tags of this kind: ${TAG_KINDS.join(' or ')}`),
    grant: grantParam,
    ...pageParams,
  },
  auth: { kind: 'public' },
  cors: true,
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    await siteReader(ctx, p.eventID, p.grant);
    const page = pageOf(p);
    const base = tagQuery(ctx.db)
      .where('eventID', '=', p.eventID)
      .$if(p.kind !== undefined, (w) => w.where('kind', '=', p.kind!));
    const rows = await base.orderBy(lowerOf('name')).orderBy('tagID').limit(page.limit).offset(page.offset).execute();
    if (!page.paginated) return rows;
    const { n } = await ctx.db
      .selectFrom('tag')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('eventID', '=', p.eventID)
      .$if(p.kind !== undefined, (w) => w.where('kind', '=', p.kind!))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
});
