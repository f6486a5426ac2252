import { z } from 'zod';
import { bOpt, defineOperation, editParams } from '../../../kernel/table.ts';
import { email, text } from '../../../schemas.ts';
import { ApiError, conflict } from '../../../errors.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../edit.ts';
import { hashPassword, verifyPassword } from '../../../auth/secrets.ts';
import { nameParts } from '../../attendee/enroll.ts';
import { ownRecord } from '../identity.ts';
import { passwordSchema } from './confirm.ts';
import { updateRow } from '../../rows.ts';
import { emailTaken, personByID } from '../repository.ts';

const nonBlank = (max: number) => text(max).refine((v) => v.trim() !== '', 'cannot be blank');

/** The identity's keys; email and password also need the current password (a stolen token is not enough). */
const KEYS: Record<string, EditKey> = {
  name: editKey(nonBlank(200)),
  firstName: editKey(nonBlank(100)),
  lastName: editKey(text(100), { clear: '' }),
  email: editKey(email.transform((v) => v.toLowerCase())),
  password: editKey(passwordSchema, { column: 'passwordHash' }),
};
const NEEDS_PASSWORD = new Set(['email', 'password']);

/**
 * Podium extension: the person edits their own identity (docs/api.md "People: identity and
 * profiles") with a system-scope token of their own — the account name, the e-mail every company
 * finds them by, the system password. Events' and companies' records of the person do not change:
 * each keeps what was given to it. Answers the person's own record (spec §2.1 without a token).
 */
export default defineOperation({
  name: 'person.edit',
  summary: `Edits the caller's own identity (system-scope token). Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    ...editParams(1000, 'new value'),
    currentPassword: bOpt(
      z.string().max(1000, 'must be at most 1000 characters'),
      'the system password, required for keys email and password when the person has one',
    ),
  },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  prepare: async (p) =>
    p.key === 'password' && passwordSchema.safeParse(p.value).success
      ? { passwordHash: await hashPassword(p.value!) }
      : {},
  async handler(ctx, p) {
    const caller = ctx.caller!;
    if (caller.scope !== 'system') throw new ApiError(403, 'person.edit needs a system-scope token of the person');
    const { column, value } = parseEdit(KEYS, p.key, p.value);
    const person = await personByID(ctx.db, caller.personID);
    if (NEEDS_PASSWORD.has(p.key) && person.passwordHash !== '') {
      const proven = p.currentPassword !== undefined && (await verifyPassword(p.currentPassword, person.passwordHash));
      if (!proven) throw new ApiError(403, `currentPassword is wrong: key ${p.key} needs the system password`);
    }
    let set: Record<string, string> = { [column]: value as string };
    if (p.key === 'name') set = nameParts(value as string);
    else if (p.key === 'firstName' || p.key === 'lastName') {
      const first = p.key === 'firstName' ? (value as string).trim() : person.firstName;
      const last = p.key === 'lastName' ? (value as string).trim() : person.lastName;
      set = { firstName: first, lastName: last, name: [first, last].filter(Boolean).join(' ') };
    } else if (p.key === 'password') set = { passwordHash: ctx.prepared.passwordHash as string };
    else if (p.key === 'email') {
      if (await emailTaken(ctx.db, value as string, person.personID))
        throw conflict('email is already used by another person');
    }
    await updateRow(ctx.db, 'person', 'personID', person.personID, set);
    const after = await personByID(ctx.db, person.personID);
    return [ownRecord(after, ctx.now)];
  },
});
