import { z } from 'zod';
import {
  bOpt,
  defineOperation,
  pageOf,
  pageParams,
  q,
  qOpt,
  LEVEL,
  type AnyOperation,
  type Context,
} from '../../../kernel/table.ts';
import { bit, email, id, nonBlank, text } from '../../../schemas.ts';
import { badRequest, conflict, notFound } from '../../../errors.ts';
import { grantSchema } from '../../../auth/grant.ts';
import { hashPassword } from '../../../auth/secrets.ts';
import { requireCaller, requireEvent } from '../../../auth/access.ts';
import { applicantWire } from '../../../../shared/wire/applicant.ts';
import { readEventImport } from '../../imports.ts';
import { register } from '../../registration/register.ts';
import { nameParts } from '../../attendee/enroll.ts';
import {
  APPLICATION_KEYS,
  applicantRecord,
  applicationOf,
  deleteApplication,
  findApplications,
  updateApplication,
  type ApplicationKey,
} from '../repository.ts';
import { approveApplication, importApplications, requirePending } from '../rules.ts';

// Applicants (spec §4.9, issue 16; docs/api/applicants.md).

const lowerEmail = email.transform((v) => v.toLowerCase());

/** Spec §4.9: the public application (B name, username, email, password), or an admin's CSV import (B path). */
const applicantBind = defineOperation({
  name: 'event.applicant.bind',
  summary:
    'Applies to an event: the person waits for an admin to approve them (public form); admins import many applicants from a CSV file (B path).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    grant: qOpt(grantSchema, 'Podium extension: the grant of event.checkAccessCode, for a private event'),
    name: bOpt(nonBlank(200), 'public form: full name'),
    username: bOpt(
      text(320)
        .regex(/^\S+$/, 'cannot contain spaces')
        .transform((v) => v.toLowerCase()),
      'public form: login name (usually the e-mail)',
    ),
    email: bOpt(lowerEmail, 'public form: e-mail; one application per e-mail and event'),
    password: bOpt(
      z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
      'public form: event-scope password of the attendee the applicant becomes',
    ),
    role: bOpt(text(200), 'job title'),
    company: bOpt(text(200), 'company name'),
    telephone: bOpt(text(40), 'telephone'),
    feedbackContent: bOpt(
      text(100000),
      "Podium extension: answers of the form's custom fields, as form.respondRegistration takes them (default [])",
    ),
    consent: bOpt(bit, 'Podium extension: 1 accepts the consent text of the form (required when it has one)'),
    path: bOpt(
      text(500),
      'admins: CSV file inside IMPORT_DIR, columns email and name (or firstName, lastName), optional username, role, company, telephone',
    ),
  },
  variants: [
    ['eventID', 'name', 'username', 'email', 'password'],
    ['eventID', 'path'],
  ],
  auth: { kind: 'public' },
  // Not callable from any web page: the widget applies through form.respondRegistration (CORS is for
  // the widgets' operations only, tests/api/cors.test.ts).
  writes: true,
  answer: applicantWire,
  // scrypt outside the transaction (see Operation.prepare).
  prepare: async (p) => ({ passwordHash: p.password && p.path === undefined ? await hashPassword(p.password) : '' }),
  async handler(ctx, p) {
    if (p.path !== undefined) {
      requireCaller(ctx);
      await requireEvent(ctx, p.eventID, LEVEL.ADMIN);
      const rows = await readEventImport(ctx.db, ctx.config.IMPORT_DIR, p.eventID, p.path);
      return (await importApplications(ctx.db, p.eventID, rows, ctx.now)).map(applicantRecord);
    }
    const names = nameParts(p.name!);
    const sent = await register(
      ctx,
      {
        eventID: p.eventID,
        grant: p.grant,
        firstName: names.firstName,
        lastName: names.lastName,
        email: p.email!,
        username: p.username!,
        feedbackContent: p.feedbackContent ?? '[]',
        role: p.role,
        company: p.company,
        telephone: p.telephone,
        consent: p.consent,
        apply: true,
        origin: 'event.applicant.bind',
      },
      (ctx.prepared.passwordHash as string | undefined) ?? '',
    );
    if (Number(sent.approved) !== -1) throw conflict('the person is already registered in this event');
    // What this call sent, as the form answers it (an application made before shows nothing stored).
    return [
      applicantRecord({
        eventID: p.eventID,
        personID: Number(sent.personID),
        username: String(sent.username),
        email: String(sent.email),
        firstName: names.firstName,
        lastName: names.lastName,
        name: names.name,
        image: '',
        role: p.role ?? '',
        company: p.company ?? '',
        telephone: p.telephone ?? '',
        passwordHash: '',
        answers: '[]',
        tagIDs: '[]',
        rsvp: 0,
        private: 0,
        origin: 'event.applicant.bind',
        language: '',
        approved: 0,
        dateCreated: ctx.now,
        approvedDate: 0,
      }),
    ];
  },
});

/**
 * The application a call names: another person's (Q personID) needs an event admin — 404 for a caller
 * with no relation to the event, 403 below admin —; without personID, the caller's own (with a system
 * token, or an event token of this event).
 */
async function named(ctx: Context, eventID: number, personID: number | undefined): Promise<number> {
  const caller = requireCaller(ctx);
  // An event-scope token acts in its own event only (spec §5.3), its person's application included.
  if (caller.scope === 'event' && caller.targetID !== eventID) throw notFound('event');
  const me = caller.personID;
  if (personID === undefined || personID === me) return me;
  await requireEvent(ctx, eventID, LEVEL.ADMIN);
  return personID;
}

const contentSchema = z.record(z.string(), z.unknown());
const KEY_SCHEMAS: Record<ApplicationKey, z.ZodType<string>> = {
  firstName: nonBlank(100),
  lastName: text(100).transform((v) => v.trim()),
  email: lowerEmail,
  role: text(200),
  company: text(200),
  telephone: text(40),
};

/** The fields of an operate call (B firstName, lastName, email, or B content), each checked: 400 naming the first bad one. */
function editsOf(p: { firstName?: string; lastName?: string; email?: string; content?: string }) {
  let given: Record<string, unknown>;
  if (p.content !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(p.content);
    } catch {
      throw badRequest('content must be a JSON object of key values');
    }
    const parsed = contentSchema.safeParse(json);
    if (!parsed.success || Array.isArray(json)) throw badRequest('content must be a JSON object of key values');
    given = parsed.data;
  } else given = { firstName: p.firstName, lastName: p.lastName, email: p.email };
  const out: Partial<Record<ApplicationKey, string>> = {};
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (!(APPLICATION_KEYS as readonly string[]).includes(key))
      throw badRequest(`content key ${key.slice(0, 60)} cannot be edited; keys: ${APPLICATION_KEYS.join(', ')}`);
    const parsed = KEY_SCHEMAS[key as ApplicationKey].safeParse(typeof value === 'number' ? String(value) : value);
    if (!parsed.success) throw badRequest(`${key} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    out[key as ApplicationKey] = parsed.data;
  }
  if (Object.keys(out).length === 0) throw badRequest('content must name at least one key');
  return out;
}

/** Spec §4.9: edits a pending application (the applicant's own, or any with Q personID for admins). */
const applicantOperate = defineOperation({
  name: 'event.applicant.operate',
  summary: `Edits a pending application: the caller's own, or (admins) the one of Q personID. Keys: ${APPLICATION_KEYS.join(', ')}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    personID: qOpt(id, "Podium extension (admins): the applicant; without it the caller's own application"),
    firstName: bOpt(nonBlank(100), 'first name'),
    lastName: bOpt(text(100), 'last name'),
    email: bOpt(lowerEmail, 'e-mail'),
    content: bOpt(text(10000), `JSON object of key values (keys: ${APPLICATION_KEYS.join(', ')})`),
  },
  variants: [
    ['eventID', 'firstName', 'lastName', 'email'],
    ['eventID', 'content'],
  ],
  auth: { kind: 'token' },
  writes: true,
  answer: applicantWire,
  async handler(ctx, p) {
    const personID = await named(ctx, p.eventID, p.personID);
    const app = await applicationOf(ctx.db, p.eventID, personID);
    if (!app) throw notFound('applicant');
    if (app.approved === 1) throw conflict('the applicant is approved already: event.person.operate edits an attendee');
    const edits = editsOf(p);
    const next = { ...app, ...edits };
    const name = `${next.firstName} ${next.lastName}`.trim();
    await updateApplication(ctx.db, p.eventID, personID, { ...edits, name });
    return [applicantRecord({ ...next, name })];
  },
});

/** Spec §4.9: refuses (removes) a pending application. */
const applicantDismiss = defineOperation({
  name: 'event.applicant.dismiss',
  summary:
    'Refuses a pending application (it is removed); an approved one is an attendee, removed with event.person.dismiss.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the applicant'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  answer: applicantWire,
  async handler(ctx, p) {
    const app = requirePending(await applicationOf(ctx.db, p.eventID, p.personID));
    await deleteApplication(ctx.db, p.eventID, p.personID);
    return [applicantRecord(app)];
  },
});

const SORTS = ['fullName', 'firstName', 'lastName', 'email', 'personID'] as const;

/** Spec §4.9: the event's applications. */
const applicantFind = defineOperation({
  name: 'event.applicant.find',
  summary: "Lists the event's applications (admins), filtered by a part of the name or e-mail, sorted.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    query: qOpt(text(200), 'part of the name or e-mail'),
    sort: qOpt(z.enum(SORTS, `must be one of ${SORTS.join(', ')}`), `${SORTS.join(', ')} (default personID)`),
    order: qOpt(z.enum(['ASC', 'DESC'], 'must be ASC or DESC'), 'ASC (default) or DESC'),
    selection: qOpt(
      z.enum(['all', 'pending', 'approved'], 'must be all, pending or approved'),
      'Podium extension: all (default), pending or approved',
    ),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: false,
  answer: applicantWire,
  handler: (ctx, p) =>
    findApplications(ctx.db, p.eventID, {
      query: p.query,
      sort: p.sort ?? 'personID',
      order: p.order ?? 'ASC',
      selection: p.selection ?? 'all',
      page: pageOf(p),
    }),
});

/** Spec §4.9: one application (the caller's own without personID). */
const applicantGet = defineOperation({
  name: 'event.applicant.get',
  summary: "Reads one application: the caller's own, or (admins) the one of Q personID.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: qOpt(id, "admins: the applicant; without it the caller's own application"),
  },
  auth: { kind: 'token' },
  writes: false,
  answer: applicantWire,
  async handler(ctx, p) {
    const personID = await named(ctx, p.eventID, p.personID);
    const app = await applicationOf(ctx.db, p.eventID, personID);
    if (!app) throw notFound('applicant');
    return [applicantRecord(app)];
  },
});

/** Spec §4.9: approves an application — the person becomes an attendee, as a registration would. */
const applicantApprove = defineOperation({
  name: 'event.applicant.approve',
  summary:
    'Approves an application: the person becomes an attendee under the rules of a registration (capacity, waiting list, general activities, confirmation e-mail). Idempotent.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the applicant'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  answer: applicantWire,
  async handler(ctx, p) {
    // The registration's confirmation e-mail follows this call's change, as form.respondRegistration's
    // (email/confirmation.ts): sent once the person is approved, never twice.
    const app = await approveApplication(ctx.db, p.eventID, p.personID, ctx.now);
    return [applicantRecord(app)];
  },
});

/** Applicants (issue 16, docs/api/applicants.md). */
export const applicantOperations: readonly AnyOperation[] = [
  applicantBind,
  applicantOperate,
  applicantDismiss,
  applicantFind,
  applicantGet,
  applicantApprove,
];
