import { z } from 'zod';
import { b, bOpt, defineOperation, q, COMPANY_LEVEL } from '../../../../kernel/table.ts';
import { bit, email, id, text } from '../../../../schemas.ts';
import { createPerson, findPersonByEmail } from '../../../person/repository.ts';
import { addCompanyPerson } from '../../people.ts';
import { ApiError } from '../../../../errors.ts';

/**
 * Spec §4.3. Adds a person (found by e-mail, or created with it as username) to the company. The
 * company's record of them is the name and e-mail sent here: an existing person's profile elsewhere
 * is neither shown nor changed.
 * Podium extensions: B level (1 Admin, 0 External user; default 1) and B password, the system
 * password of a person created here — from a platform operator only. A company admin who chose the
 * password of an address nobody has proved would own that identity before its owner came: every
 * event and company the address joined later (identity changes only with proof). A person created
 * without one sets it through person.recover, which proves the mailbox.
 */
export default defineOperation({
  name: 'company.person.bind',
  summary: 'Adds a company admin or external user.',
  methods: ['POST'],
  params: {
    companyID: q(id, 'the company'),
    name: b(text(200), 'full name'),
    email: b(email, 'e-mail, also the username of a new person'),
    level: bOpt(bit, 'Podium extension: 1 Admin (default), 0 External user'),
    password: bOpt(
      z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
      'Podium extension: password of a new person (platform operators only)',
    ),
  },
  auth: { kind: 'company', role: 'admin' },
  writes: true,
  async handler(ctx, p) {
    if (p.password !== undefined && !ctx.caller!.operator)
      throw new ApiError(403, 'password is for platform operators: a new person sets their own (person.recover)');
    const mail = p.email.toLowerCase();
    const existing = await findPersonByEmail(ctx.db, mail);
    const personID =
      existing?.personID ??
      (await createPerson(ctx.db, { username: mail, email: mail, name: p.name, password: p.password }, ctx.now));
    const level = p.level === 0 ? COMPANY_LEVEL.EXTERNAL : COMPANY_LEVEL.ADMIN;
    return addCompanyPerson(ctx.db, p.companyID, { personID, level, name: p.name, email: mail }, ctx.now);
  },
});
