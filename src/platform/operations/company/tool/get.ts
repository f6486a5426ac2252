import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.ts';
import { defineOperation, q } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';

export async function toolRow(db: Kysely<DB>, companyID: number) {
  const row = await db.selectFrom('companyTool').selectAll().where('companyID', '=', companyID).executeTakeFirst();
  if (!row) throw notFound('company');
  return [row];
}

/** Spec §4.3: public (apps read which tools to show before anyone signs in). */
export default defineOperation({
  name: 'company.tool.get',
  summary: 'Reads the tool switches of a company.',
  methods: ['GET'],
  params: { companyID: q(id, 'the company') },
  auth: { kind: 'public' },
  cachePublic: true,
  writes: false,
  handler: (ctx, p) => toolRow(ctx.db, p.companyID),
});
