import { z } from 'zod';
import { b, defineOperation, q, COMPANY_LEVEL } from '../../../table.ts';
import { bit, id } from '../../../schemas.ts';
import { conflict, notFound } from '../../../errors.ts';
import { companyPeople, countAdmins } from '../../../domain/company/repository.ts';

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
    const member = await companyPeople(ctx.db, p.companyID)
      .where('companyPerson.personID', '=', p.personID)
      .executeTakeFirst();
    if (!member) throw notFound('company person');
    const level = p.value === 1 ? COMPANY_LEVEL.ADMIN : COMPANY_LEVEL.EXTERNAL;
    if (
      member.level === COMPANY_LEVEL.ADMIN &&
      level !== COMPANY_LEVEL.ADMIN &&
      (await countAdmins(ctx.db, p.companyID)) <= 1
    ) {
      throw conflict('the company must keep at least one admin');
    }
    await ctx.db
      .updateTable('companyPerson')
      .set({ level })
      .where('companyID', '=', p.companyID)
      .where('personID', '=', p.personID)
      .execute();
    return [{ ...member, level }];
  },
});
