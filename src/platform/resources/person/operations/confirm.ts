import { z } from 'zod';
import { b, defineOperation } from '../../../kernel/table.ts';
import { text } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { hashPassword } from '../../../auth/secrets.ts';
import { issueToken } from '../../attendee/enroll.ts';
import { spendConfirmation, tokenRecord } from '../identity.ts';
import { personByID, resetPassword } from '../repository.ts';

export const passwordSchema = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(200, 'must be at most 200 characters');

/**
 * Podium extension: spends the one-time code of a person.recover link and sets the system password.
 * Every token the person held is revoked (whoever had one loses it) and a new system-scope token is
 * answered, as person.signIn does.
 */
export default defineOperation({
  name: 'person.confirm',
  summary: 'Sets the system password with the one-time code of person.recover; answers a new token.',
  methods: ['POST'],
  params: {
    code: b(text(200), 'the code of the link person.recover sent'),
    password: b(passwordSchema, 'the new system password'),
  },
  auth: { kind: 'public' },
  // Not 401 for a token that is not valid: a client holding a stale token must still reach the way to a new password.
  staleTokenIgnored: true,
  extension: true,
  writes: true,
  // Hashed before the write transaction (scrypt is slow; SQLite would be held for it).
  prepare: async (p) => ({ passwordHash: await hashPassword(p.password) }),
  async handler(ctx, p) {
    const personID = await spendConfirmation(ctx.db, p.code, 'password', ctx.now);
    if (personID === undefined) throw badRequest('code is not valid, was used already or has expired');
    await resetPassword(ctx.db, personID, ctx.prepared.passwordHash as string);
    const person = await personByID(ctx.db, personID);
    const tokenID = await issueToken(ctx, personID, 'system', 0);
    return [tokenRecord(person, { tokenID, scope: 'system', targetID: 0 }, ctx.now)];
  },
});
