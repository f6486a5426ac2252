import { z } from 'zod';
import { b, bOpt, defineOperation, q, qOpt } from '../../../kernel/table.ts';
import { bit, email, id, ids, nonBlank, text, url } from '../../../schemas.ts';
import { grantSchema } from '../../../auth/grant.ts';
import { register, shownRegistration } from '../../registration/register.ts';
import { hashPassword } from '../../../auth/secrets.ts';
import { confirmationOn } from '../../email/repository.ts';
import { redeem } from '../../coupon/redeem.ts';
import { parseGuestList } from '../../guest/fields.ts';

const name = nonBlank(100);

/**
 * Spec §4.4: the public registration form (no token). The event must take registrations (form.get
 * says whether and why not); every answer is checked against its field; capacity and the same e-mail
 * twice are safe under concurrency. Podium extensions: Q grant (private events), B consent, and the
 * answer's `duplicate`. The answer is the §2.3 attendee record plus tokenID and duplicate; for a person
 * the call did not create, only what it sent plus ids. Behaviour the spec leaves open:
 * docs/api/registration.md.
 */
export default defineOperation({
  name: 'form.respondRegistration',
  summary:
    'Registers a person in an event through its public registration form; answers the attendee record (for a person the call did not create, only what it sent plus ids).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    grant: qOpt(grantSchema, 'Podium extension: the grant of event.checkAccessCode, for a private event'),
    firstName: b(name, 'first name'),
    lastName: b(name, 'last name'),
    email: b(
      email.transform((v) => v.toLowerCase()),
      'e-mail; one attendee per e-mail and event',
    ),
    feedbackContent: b(
      text(100000),
      'answers: JSON list of {"feedbackID","value"}, or an object keyed by API Field key ([] when none is required)',
    ),
    username: bOpt(
      text(320)
        .regex(/^\S+$/, 'cannot contain spaces')
        .transform((v) => v.toLowerCase()),
      'login name (default: the e-mail)',
    ),
    invite: bOpt(
      email.transform((v) => v.toLowerCase()),
      'the invited e-mail (required when the event registers invitees only)',
    ),
    image: bOpt(url, 'picture URL'),
    password: bOpt(
      z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
      'event-scope password (none is set when empty)',
    ),
    role: bOpt(text(200), 'job title'),
    company: bOpt(text(200), 'company name'),
    telephone: bOpt(text(40), 'telephone'),
    rsvp: bOpt(bit, '0 or 1 (default 0)'),
    login: bOpt(bit, '1: the answer holds an event-scope tokenID'),
    tagIDs: bOpt(ids, 'attendee-type tags of this event, separated by commas'),
    private: bOpt(bit, '0 or 1 (default 0)'),
    consent: bOpt(bit, 'Podium extension: 1 accepts the consent text of the form (required when it has one)'),
    guests: bOpt(
      text(40000),
      'Podium extension: guests the new attendee brings, a JSON list of {"name","email"} (at most the event\'s guestsForMember; bound only when this call registers them)',
    ),
    language: bOpt(
      z.enum(['en', 'pt', 'es'], 'must be en, pt or es'),
      "Podium extension: the language the attendee chose, that of the form (their e-mails and pages; default: the event's)",
    ),
    coupon: bOpt(
      text(40),
      'a coupon code of the event (only where it has a ticket price): its discount is stored on the enrollment',
    ),
  },
  auth: { kind: 'public' },
  // Not 401 for a token that is not valid: a widget holding a stale token must still register its visitor.
  staleTokenIgnored: true,
  cors: true,
  writes: true,
  // scrypt only when a password is given, and outside the transaction (see Operation.prepare).
  prepare: async (p) => ({ passwordHash: p.password ? await hashPassword(p.password) : '' }),
  async handler(ctx, p) {
    const guests = p.guests === undefined ? undefined : parseGuestList(p.guests);
    const answer = await register(ctx, { ...p, guests }, (ctx.prepared.passwordHash as string | undefined) ?? '');
    // A registration already made keeps its discount: sending the form again uses no coupon.
    if (p.coupon !== undefined && Number(answer.duplicate) === 0)
      await redeem(ctx.db, p.eventID, Number(answer.personID), p.coupon, ctx.now);
    // The confirmation e-mail follows this call's change (email/confirmation.ts): a new approved attendee
    // of a company with the tool on gets one (a waiting-list registration none yet). `emailed` says
    // whether this call's registration will be mailed, so the form says an e-mail is coming only then.
    // (The record's values are as stored: numbers.)
    const emailed =
      Number(answer.duplicate) === 0 &&
      Number(answer.approved) === 1 &&
      !ctx.sandbox &&
      (await confirmationOn(ctx.db, p.eventID));
    return [{ ...answer, emailed: emailed ? 1 : 0 }];
  },
  // A repeat's ids and state are the person's and the organizer's: anyone else, who may only know the
  // address, is answered without them — after the change (webhooks, push) has named the real person.
  shown: (ctx, p, rows) => shownRegistration(ctx, p.eventID, rows),
});
