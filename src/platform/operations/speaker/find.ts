import type { SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { defineOperation, pageOf, pageParams, q, qOpt } from '../../table.ts';
import { id, text } from '../../schemas.ts';
import { contains, lowerOf } from '../../domain/hotsite/content.ts';
import { grantParam, siteReader } from '../site-read.ts';
import { speakerQuery, speakerRecord } from '../../domain/speaker/repository.ts';

/**
 * Podium extension: the speakers of an event, by position, then name. With a token any member of the
 * event may list them; without one (the public site) only a visible event, public or unlocked with a
 * grant. Only the event's admins see `email`.
 */
export default defineOperation({
  name: 'speaker.find',
  summary: 'Lists the speakers of an event (public for readable events).',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    query: qOpt(text(200), 'name or headline contains (any case)'),
    category: qOpt(text(100), 'category equals'),
    grant: grantParam,
    ...pageParams,
  },
  auth: { kind: 'public' },
  cors: true,
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const { admin } = await siteReader(ctx, p.eventID, p.grant);
    const page = pageOf(p);
    const filter = <O>(qb: SelectQueryBuilder<DB, 'speaker', O>) =>
      qb
        .where('eventID', '=', p.eventID)
        .$if(p.query !== undefined, (w) =>
          w.where((e) => e.or([contains('name', p.query!), contains('headline', p.query!)])),
        )
        .$if(p.category !== undefined, (w) => w.where('category', '=', p.category!));
    const rows = await filter(speakerQuery(ctx.db))
      .orderBy('position')
      .orderBy(lowerOf('name'))
      .orderBy('speakerID')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const items = rows.map((r) => speakerRecord(r, admin));
    if (!page.paginated) return items;
    const { n } = await filter(ctx.db.selectFrom('speaker'))
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows: items, total: Number(n) };
  },
});
