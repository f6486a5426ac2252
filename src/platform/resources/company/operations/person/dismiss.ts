import { defineOperation, q } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { companyMember, keepAnAdmin, removeCompanyPerson } from '../../people.ts';

/** Spec §4.3. Removes a person from the company; the last admin cannot be removed. */
export default defineOperation({
  name: 'company.person.dismiss',
  summary: 'Removes a person from the company.',
  methods: ['GET'],
  params: { companyID: q(id, 'the company'), personID: q(id, 'the person') },
  auth: { kind: 'company', role: 'admin' },
  writes: true,
  async handler(ctx, p) {
    const member = await companyMember(ctx.db, p.companyID, p.personID);
    await keepAnAdmin(ctx.db, p.companyID, member);
    await removeCompanyPerson(ctx.db, p.companyID, p.personID);
    return [member];
  },
});
