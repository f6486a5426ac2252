import { defineOperation, q } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { notFound } from '../../../../errors.ts';
import { companyTools } from '../../repository.ts';

export async function toolRow(db: Parameters<typeof companyTools>[0], companyID: number) {
  const row = await companyTools(db, companyID);
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
