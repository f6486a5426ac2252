import { defineOperation, pageOf, pageParams, q } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { lowerOf } from '../../../domain/hotsite/content.ts';
import { paged } from '../../../domain/relation/common.ts';
import { companyTagQuery } from '../../../domain/tag/company.ts';

/**
 * Podium extension: the company's event tags, by name (ignoring case), then tagID. For people of the
 * company: a tag no event carries yet is the company's own business (the tags of a readable event are
 * public through event.tag.find).
 */
export default defineOperation({
  name: 'company.tag.find',
  summary: "Lists the company's event tags (kind event).",
  methods: ['GET'],
  params: { companyID: q(id, 'the company'), ...pageParams },
  auth: { kind: 'company', role: 'member' },
  extension: true,
  writes: false,
  async handler(ctx, p) {
    return paged(
      pageOf(p),
      (limit, offset) =>
        companyTagQuery(ctx.db, p.companyID)
          .orderBy(lowerOf('tag.name'))
          .orderBy('tag.tagID')
          .limit(limit)
          .offset(offset)
          .execute(),
      async () =>
        (
          await companyTagQuery(ctx.db, p.companyID)
            .clearSelect()
            .select((e) => e.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
