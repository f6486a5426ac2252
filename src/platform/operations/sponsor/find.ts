import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { defineOperation, pageOf, pageParams, q, qOpt } from '../../table.ts';
import { id, text } from '../../schemas.ts';
import { contains, lowerOf } from '../../domain/hotsite/content.ts';
import { grantParam, siteReader } from '../site-read.ts';
import { sponsorQuery, sponsorRecord } from '../../domain/sponsor/repository.ts';

/**
 * Podium extension: the sponsors of an event, by tier (tierRank 1 first, 0 last), then position,
 * then name. Public like speaker.find; only the event's admins see `telephone` and `email`.
 */
export default defineOperation({
  name: 'sponsor.find',
  summary: 'Lists the sponsors of an event (public for readable events).',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    query: qOpt(text(200), 'name or companyName contains (any case)'),
    category: qOpt(text(100), 'category equals'),
    tier: qOpt(text(60), 'tier equals'),
    grant: grantParam,
    ...pageParams,
  },
  auth: { kind: 'public' },
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const { admin } = await siteReader(ctx, p.eventID, p.grant);
    const page = pageOf(p);
    const filter = <O>(qb: SelectQueryBuilder<DB, 'sponsor', O>) =>
      qb
        .where('eventID', '=', p.eventID)
        .$if(p.query !== undefined, (w) =>
          w.where((e) => e.or([contains('name', p.query!), contains('companyName', p.query!)])),
        )
        .$if(p.category !== undefined, (w) => w.where('category', '=', p.category!))
        .$if(p.tier !== undefined, (w) => w.where('tier', '=', p.tier!));
    const rows = await filter(sponsorQuery(ctx.db))
      .orderBy(sql`case when ${sql.ref('tierRank')} = 0 then 1 else 0 end`)
      .orderBy('tierRank')
      .orderBy('position')
      .orderBy(lowerOf('name'))
      .orderBy('sponsorID')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const items = rows.map((r) => sponsorRecord(r, admin));
    if (!page.paginated) return items;
    const { n } = await filter(ctx.db.selectFrom('sponsor'))
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows: items, total: Number(n) };
  },
});
