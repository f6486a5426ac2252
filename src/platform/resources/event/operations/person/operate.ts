import { z } from 'zod';
import { defineOperation, editParams, q, qOpt, ANY_LEVEL } from '../../../../kernel/table.ts';
import { bit, email, id, ids, text, url } from '../../../../schemas.ts';
import { ApiError, notFound } from '../../../../errors.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../../edit.ts';
import { hashPassword } from '../../../../auth/secrets.ts';
import { sanitizeOrganizerHtml } from '../../../html.ts';
import { attendeeRecord } from '../../../attendee/record.ts';
import { nameParts } from '../../../attendee/enroll.ts';
import { base64Schema, languageSchema, levelSchema, recordOptions } from '../../../attendee/profile.ts';
import { attendeeNames, checkUniqueInEvent, setAttendeeTags, updateAttendee } from '../../../attendee/membership.ts';
import { isAdmin, viewerOf } from '../../../../kernel/call.ts';
import { readFeedbackContent } from '../../../form/fields.ts';
import { CLOSED_MESSAGES, windowReason } from '../../../form/settings.ts';
import { enrollmentSettings, formFields, replaceAnswers } from '../../../attendee/answers.ts';

const nonBlank = (max: number) => text(max).refine((v) => v.trim() !== '', 'cannot be blank');
const line = (max = 200) => editKey(text(max), { clear: '' });
const link = editKey(url, { clear: '' });

/** Keys of spec §2.3 of the attendee's profile in this event (eventPerson; never the person row). */
const PROFILE_KEYS: Record<string, EditKey> = {
  name: editKey(nonBlank(200)),
  firstName: editKey(nonBlank(100)),
  lastName: line(100),
  email: editKey(
    email.transform((v) => v.toLowerCase()),
    { clear: '' },
  ),
  role: line(),
  company: line(),
  summary: line(5000),
  image: link,
  telephone: line(50),
  city: line(),
  socialA: link,
  socialB: link,
  socialC: link,
  socialD: link,
  website: link,
};

/** Keys of spec §2.3 stored on the attendee's registration in this event (eventPerson). */
const MEMBER_KEYS: Record<string, EditKey> = {
  password: editKey(z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'), {
    column: 'passwordHash',
  }),
  message: editKey(text(5000).transform(sanitizeOrganizerHtml), { clear: '' }),
  language: editKey(languageSchema, { clear: '' }),
  private: editKey(bit),
  rsvp: editKey(bit),
  present: editKey(bit),
  level: editKey(levelSchema),
  nfc: editKey(base64Schema, { clear: '' }),
  ticketID: editKey(id, { clear: 0 }),
  profileID: editKey(id, { clear: 0 }),
  assistantEmail: editKey(
    email.transform((v) => v.toLowerCase()),
    { clear: '' },
  ),
  tagIDs: editKey(ids, { clear: '' }),
  // The answers to the form's custom fields, as form.respondRegistration takes them (issue 18).
  feedbackContent: editKey(z.string().max(100_000, 'must be at most 100000 characters')),
};

const KEYS: Record<string, EditKey> = { ...PROFILE_KEYS, ...MEMBER_KEYS };
/**
 * Keys only an event admin may set, on anyone (an attendee's own token cannot: spec §2.3). `present`
 * too: an attendee marking themselves present would be a check-in without the door (as for sessions,
 * spec §2.6: on one's own record activity.person.operate takes only priori).
 */
const ADMIN_KEYS = new Set(['message', 'level', 'ticketID', 'profileID', 'assistantEmail', 'present']);

/**
 * Spec §4.4, §2.3. Edits one field of an attendee: with personID (event admins) that attendee,
 * without it the caller's own record (any token of an attendee, system or event scope). Every key
 * changes only this event's record of the attendee (profile keys included: docs/api.md "People:
 * identity and profiles"); the person's identity changes only through person.edit. Sets updatedDate.
 */
export default defineOperation({
  name: 'event.person.operate',
  summary: `Edits one attendee field. Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    personID: qOpt(id, 'the attendee (event admins); without it the caller'),
    ...editParams(10000),
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: true,
  // The password is hashed before the transaction (see Operation.prepare), once it passes its rule.
  prepare: async (p) =>
    p.key === 'password' && MEMBER_KEYS.password.schema.safeParse(p.value).success
      ? { passwordHash: await hashPassword(p.value!) }
      : {},
  async handler(ctx, p) {
    const eventID = p.eventID;
    const me = ctx.caller!.personID;
    const admin = isAdmin(ctx);
    const personID = p.personID ?? me;
    if (personID !== me && !admin) throw new ApiError(403, 'only event admins may edit another attendee');
    if (ADMIN_KEYS.has(p.key) && !admin) throw new ApiError(403, `key ${p.key} needs an event admin token`);
    const { column, value } = parseEdit(KEYS, p.key, p.value);

    const member = await attendeeNames(ctx.db, eventID, personID);
    if (!member) throw notFound('person');

    if (Object.hasOwn(PROFILE_KEYS, p.key)) {
      let set: Record<string, unknown> = { [column]: value };
      if (p.key === 'name') {
        set = nameParts(value as string);
      } else if (p.key === 'firstName' || p.key === 'lastName') {
        const first = p.key === 'firstName' ? (value as string).trim() : member.firstName;
        const last = p.key === 'lastName' ? (value as string).trim() : member.lastName;
        set = { firstName: first, lastName: last, name: [first, last].filter(Boolean).join(' ') };
      } else if (p.key === 'email' && value !== '') {
        await checkUniqueInEvent(ctx.db, eventID, personID, 'email', value as string);
      }
      // This event's view only: the person's identity and their other events are not touched.
      await updateAttendee(ctx.db, eventID, personID, set, ctx.now);
    } else {
      let set: Record<string, unknown> = { [column]: value };
      if (p.key === 'password') set = { passwordHash: ctx.prepared.passwordHash as string };
      if (p.key === 'nfc' && value !== '') {
        await checkUniqueInEvent(ctx.db, eventID, personID, 'nfc', value as string);
      }
      if (p.key === 'tagIDs') {
        await setAttendeeTags(ctx.db, eventID, personID, value === '' ? [] : [...new Set(value as number[])]);
        set = {};
      }
      if (p.key === 'feedbackContent') {
        // An attendee changes their answers while the form is open; the event's admins at any time.
        const closed = admin ? undefined : windowReason((await enrollmentSettings(ctx.db, eventID))!, ctx.now);
        if (closed) throw new ApiError(403, `answers cannot be changed: ${CLOSED_MESSAGES[closed]}`);
        const answers = readFeedbackContent(value as string, await formFields(ctx.db, eventID));
        await replaceAnswers(ctx.db, eventID, personID, answers);
        set = {};
      }
      await updateAttendee(ctx.db, eventID, personID, set, ctx.now);
    }

    const record = await attendeeRecord(ctx.db, eventID, personID, viewerOf(ctx), await recordOptions(ctx.db, eventID));
    return [record!];
  },
});
