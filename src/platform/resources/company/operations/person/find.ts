import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt } from '../../../../kernel/table.ts';
import { id, orientation } from '../../../../schemas.ts';
import { COMPANY_PERSON_ORDERS, companyPeoplePage } from '../../people.ts';

/** Spec §4.3. Company admins and external users; any person of the company may list them. */
export default defineOperation({
  name: 'company.person.find',
  summary: 'Lists the people of a company.',
  methods: ['GET'],
  params: {
    companyID: q(id, 'the company'),
    selection: q(z.literal('all', 'must be all'), 'all'),
    order: qOpt(
      z.enum(
        Object.keys(COMPANY_PERSON_ORDERS) as [keyof typeof COMPANY_PERSON_ORDERS],
        `must be one of ${Object.keys(COMPANY_PERSON_ORDERS).join(', ')}`,
      ),
      'sort column',
    ),
    orderOrientation: qOpt(orientation, 'ASC or DESC'),
    ...pageParams,
  },
  auth: { kind: 'company', role: 'member' },
  writes: false,
  async handler(ctx, p) {
    const dir = p.orderOrientation === 'DESC' ? 'desc' : 'asc';
    return companyPeoplePage(ctx.db, p.companyID, p.order ?? 'personID', dir, pageOf(p));
  },
});
