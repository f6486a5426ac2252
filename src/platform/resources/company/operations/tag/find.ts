import { defineOperation, pageOf, pageParams, q } from '../../../../kernel/table.ts';
import { companyTagsPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';

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
    return companyTagsPage(ctx.db, p.companyID, pageOf(p));
  },
});
