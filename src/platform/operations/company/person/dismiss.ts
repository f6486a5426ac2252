import { defineOperation, q, COMPANY_LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { conflict, notFound } from '../../../errors.ts';
import { companyPeople, countAdmins } from '../../../domain/company/repository.ts';

/** Spec §4.3. Removes a person from the company; the last admin cannot be removed. */
export default defineOperation({
  name: 'company.person.dismiss',
  summary: 'Removes a person from the company.',
  methods: ['GET'],
  params: { companyID: q(id, 'the company'), personID: q(id, 'the person') },
  auth: { kind: 'company', role: 'admin' },
  writes: true,
  async handler(ctx, p) {
    const member = await companyPeople(ctx.db, p.companyID)
      .where('companyPerson.personID', '=', p.personID)
      .executeTakeFirst();
    if (!member) throw notFound('company person');
    if (member.level === COMPANY_LEVEL.ADMIN && (await countAdmins(ctx.db, p.companyID)) <= 1) {
      throw conflict('the company must keep at least one admin');
    }
    await ctx.db
      .deleteFrom('companyPerson')
      .where('companyID', '=', p.companyID)
      .where('personID', '=', p.personID)
      .execute();
    return [member];
  },
});
