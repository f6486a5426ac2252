import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt } from '../../../table.ts';
import { id, orientation } from '../../../schemas.ts';
import { companyPeople } from '../../../domain/company/repository.ts';

const ORDERS = {
  personID: 'companyPerson.personID',
  name: 'companyPerson.name',
  email: 'companyPerson.email',
  level: 'companyPerson.level',
} as const;

/** Spec §4.3. Company admins and external users; any person of the company may list them. */
export default defineOperation({
  name: 'company.person.find',
  summary: 'Lists the people of a company.',
  methods: ['GET'],
  params: {
    companyID: q(id, 'the company'),
    selection: q(z.literal('all', 'must be all'), 'all'),
    order: qOpt(
      z.enum(Object.keys(ORDERS) as [keyof typeof ORDERS], `must be one of ${Object.keys(ORDERS).join(', ')}`),
      'sort column',
    ),
    orderOrientation: qOpt(orientation, 'ASC or DESC'),
    ...pageParams,
  },
  auth: { kind: 'company', role: 'member' },
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    const dir = p.orderOrientation === 'DESC' ? 'desc' : 'asc';
    const rows = await companyPeople(ctx.db, p.companyID)
      .orderBy(ORDERS[p.order ?? 'personID'], dir)
      .orderBy('companyPerson.personID')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    if (!page.paginated) return rows;
    const { n } = await ctx.db
      .selectFrom('companyPerson')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('companyID', '=', p.companyID)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
});
