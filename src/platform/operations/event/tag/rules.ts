import { requireCompany } from '../../../auth/access.ts';
import { notFound } from '../../../errors.ts';
import type { Context } from '../../../table.ts';
import { companyTagByID } from '../../../domain/tag/company.ts';

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
