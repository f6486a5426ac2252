import { z } from 'zod';
import { b, bOpt, defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { bit, email, id, text } from '../../../../schemas.ts';
import { conflict } from '../../../../errors.ts';
import { enrollInEvent, nameParts } from '../../../attendee/enroll.ts';
import { attendeeRecord } from '../../../attendee/record.ts';
import { levelSchema, recordOptions } from '../../../attendee/profile.ts';
import { createPerson, findPersonByUsername } from '../../../person/repository.ts';
import { isAttendee } from '../../../enrollment/rules.ts';
import { ensureSpeaker } from '../../../speaker/repository.ts';
import { viewerOf } from '../../../../kernel/call.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Spec §4.4. Adds an attendee to the event (admin scope): a new person, or the person whose username
 * exists already. Either way the event's profile of the attendee is what this call sent (name,
 * e-mail, role, company, telephone) and the answer shows only that plus ids: what the person gave to
 * other companies' events is neither shown nor changed. An attendee already enrolled → 409.
 * createSpeaker=1 also adds a speaker of the event linked to the person.
 */
export default defineOperation({
  name: 'event.person.bind',
  summary: 'Adds an attendee to the event (a new person, or an existing one by username).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: b(
      text(200).refine((v) => v.trim() !== '', 'cannot be blank'),
      'full name',
    ),
    username: b(
      z
        .string()
        .max(320, 'must be at most 320 characters')
        .regex(/^\S+$/, 'cannot contain spaces')
        .transform((v) => v.toLowerCase()),
      'login name (usually the e-mail)',
    ),
    email: bOpt(email, 'e-mail (default: the username when it is an e-mail)'),
    role: bOpt(text(200), 'job title'),
    company: bOpt(text(200), 'company name'),
    telephone: bOpt(text(50), 'telephone'),
    origin: bOpt(text(200), 'free string: where the attendee came from'),
    createSpeaker: bOpt(bit, '1 also creates a speaker of the event linked to the person'),
    level: bOpt(levelSchema, `numeric permission level (default ${LEVEL.USER})`),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  async handler(ctx, p) {
    const eventID = p.eventID;
    const mail = (p.email ?? (EMAIL.test(p.username) && p.username.length <= 320 ? p.username : '')).toLowerCase();
    const names = nameParts(p.name);
    let personID = (await findPersonByUsername(ctx.db, p.username))?.personID;
    if (personID !== undefined) {
      if (await isAttendee(ctx.db, eventID, personID))
        throw conflict('the person is already an attendee of this event');
    } else {
      personID = await createPerson(ctx.db, { username: p.username, email: mail, ...names }, ctx.now);
    }
    // The event's profile of the attendee is what this call sent, whoever the person is elsewhere.
    const profile = {
      username: p.username,
      email: mail,
      ...names,
      role: p.role ?? '',
      company: p.company ?? '',
      telephone: p.telephone ?? '',
    };
    await enrollInEvent(
      ctx.db,
      { eventID, personID, level: p.level ?? LEVEL.USER, origin: p.origin ?? '', ...profile },
      ctx.now,
    );
    if (p.createSpeaker === 1) await ensureSpeaker(ctx.db, eventID, { personID, name: names.name, email: mail });
    const record = await attendeeRecord(ctx.db, eventID, personID, viewerOf(ctx), await recordOptions(ctx.db, eventID));
    return [record!];
  },
});
