import { requireCompany } from '../../../../auth/access.ts';
import { notFound } from '../../../../errors.ts';
import type { Context } from '../../../../kernel/table.ts';
import { companyTagByID } from '../../../tag/company.ts';
import { pairOperations } from '../../../../kernel/pairs.ts';

/**
 * event.tag.bind / dismiss: the event's company classifies its events, so the caller must be an admin
 * of that company (an event admin who is not gets 403), and the tag one of the company's event tags
 * (any other tag, another company's included, is 404 tag).
 */
export async function companyTagOfCall(ctx: Context, tagID: number) {
  const companyID = ctx.access!.companyID;
  await requireCompany(ctx, companyID, 'admin');
  const tag = await companyTagByID(ctx.db, companyID, tagID);
  if (!tag) throw notFound('tag');
  return tag;
}

/**
 * Podium extension: tags an event with one of its company's event tags (company.tag.create), which
 * company.event.find then selects (`tags:<id>`) and filters (`tags`), or takes one off. Company admins
 * only; binding again, or dismissing a pair not bound, changes nothing.
 */
export const eventTagPairOperations = pairOperations({
  module: 'event.tag',
  table: 'eventTag',
  owner: { param: 'eventID', description: 'the event' },
  other: { param: 'tagID', description: "an event tag of the event's company" },
  summaries: {
    bind: 'Tags an event with an event tag of its company (company admins).',
    dismiss: 'Removes an event tag from an event (company admins).',
  },
  extension: true,
  check: async (ctx, tagID) => void (await companyTagOfCall(ctx, tagID)),
});
