import { z } from 'zod';
import { b, defineOperation, q, COMPANY_LEVEL } from '../../../../kernel/table.ts';
import { bit, id } from '../../../../schemas.ts';
import { companyMember, keepAnAdmin, setCompanyLevel } from '../../people.ts';

/** Spec §4.3: key `level`, value bit — 1 makes the person Admin, 0 External user. */
export default defineOperation({
  name: 'company.person.operate',
  summary: 'Sets a company person level (key level; value 1 Admin, 0 External user).',
  methods: ['POST'],
  params: {
    companyID: q(id, 'the company'),
    personID: q(id, 'the person'),
    key: q(z.literal('level', 'cannot be edited here (only level)'), 'level'),
    value: b(bit, '1 Admin, 0 External user'),
  },
  auth: { kind: 'company', role: 'admin' },
  writes: true,
  async handler(ctx, p) {
    const member = await companyMember(ctx.db, p.companyID, p.personID);
    const level = p.value === 1 ? COMPANY_LEVEL.ADMIN : COMPANY_LEVEL.EXTERNAL;
    await keepAnAdmin(ctx.db, p.companyID, member, level);
    await setCompanyLevel(ctx.db, p.companyID, p.personID, level);
    return [{ ...member, level }];
  },
});
