import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { LEVEL } from '../../auth/levels.ts';
import type { Work } from '../work.ts';
import { ApiError, badRequest, conflict, notFound } from '../../errors.ts';
import { lockRow } from '../../db/lock.ts';
import { isPostgres } from '../../db/connect.ts';
import { eventAccess } from '../../auth/access.ts';
import { grantKind, PREVIEW_REFUSED } from '../../auth/grant.ts';
import { findPersonByUsername } from '../person/repository.ts';
import { enrollInEvent, issueToken } from '../attendee/enroll.ts';
import { attendeeRecord, type RecordOptions, type RecordTag } from '../attendee/record.ts';
import { compiledOnce } from '../attendee/compiled.ts';
import { registrationWire } from '../../../shared/wire/attendee.ts';
import { REFUSED } from '../../../shared/refused.ts';
import { recordOf, type RecordOf } from '../records.ts';
import { EVENT_PROFILE_FIELDS } from '../../db/schema.ts';
import { parseStoredOptions, readFeedbackContent, type FieldDef } from '../form/fields.ts';
import { CLOSED_MESSAGES, windowReason } from '../form/settings.ts';
import { guestRecord, insertGuest, placesTaken } from '../guest/repository.ts';
import type { GuestInput } from '../guest/fields.ts';
import { recordChange } from '../change/log.ts';
import { applicationOf, deleteApplication, insertApplication } from '../applicant/repository.ts';

/** What form.respondRegistration receives (spec §4.4), after parameter validation. */
export interface RegistrationInput {
  readonly eventID: number;
  readonly firstName: string;
  readonly lastName: string;
  /** Lower-case. */
  readonly email: string;
  readonly feedbackContent: string;
  readonly username?: string;
  readonly invite?: string;
  readonly image?: string;
  readonly password?: string;
  readonly role?: string;
  readonly company?: string;
  readonly telephone?: string;
  readonly rsvp?: number;
  readonly login?: number;
  readonly tagIDs?: readonly number[];
  readonly private?: number;
  readonly consent?: number;
  readonly grant?: string;
  /**
   * Record an application rather than an attendee whatever the event's approvalRequired says
   * (event.applicant.bind); the event's setting decides for the form.
   */
  readonly apply?: boolean;
  /** The language the attendee chose (eventPerson.language; default none: the event's). */
  readonly language?: string;
  /** Where the registration came from (eventPerson.origin; default `form`). */
  readonly origin?: string;
  /**
   * Guests the new attendee brings (Podium extension, docs/api/guests.md "Guests with the
   * registration"): bound in this transaction, as the attendee's, when this call registers them.
   */
  readonly guests?: readonly GuestInput[];
}

/**
 * The event's enrollment settings and its form's fields in one query, compiled once (one row
 * per field; one row with null field columns when the form has none). Deliberately not eventByID: its record counts every
 * approved attendee, which grows with the event, and this is the hot path of a busy registration.
 */
const formQuery = compiledOnce(1, (db, eventID: number) =>
  db
    .selectFrom('event')
    .leftJoin('feedback', 'feedback.eventID', 'event.eventID')
    .select([
      'event.visible',
      'event.isTemplate',
      'event.public',
      'event.enrollmentOpen',
      'event.inviteRequired',
      'event.waitingList',
      'event.approvalRequired',
      'event.capacity',
      'event.guestsForMember',
      'event.companyID',
      'event.enrollmentBegin',
      'event.enrollmentEnd',
      'event.consent',
      'event.language',
      'event.accessCode',
      'feedback.feedbackID',
      'feedback.name',
      'feedback.type',
      'feedback.options',
      'feedback.apiKey',
      'feedback.required',
    ]) // prettier-ignore
    .where('event.eventID', '=', eventID)
    .orderBy('feedback.position')
    .orderBy('feedback.feedbackID'),
);

async function formOf(db: Kysely<DB>, eventID: number) {
  const { rows } = await formQuery(db, [eventID]);
  if (rows.length === 0) return undefined;
  const fields: FieldDef[] = rows
    .filter((r) => r.feedbackID !== null)
    .map((r) => ({
      feedbackID: r.feedbackID!,
      name: r.name!,
      type: r.type!,
      options: parseStoredOptions(r.options!),
      apiKey: r.apiKey,
      required: r.required!,
    }));
  return { event: rows[0], fields };
}

/**
 * The rule of readableEvent (auth/grant.ts) on the columns read above: a token related to the event
 * sees it; anyone else needs it visible and not a template, and a private event needs its grant.
 */
async function checkReadable(
  ctx: Work,
  e: { visible: number; isTemplate: number; public: number; accessCode: number | null },
  eventID: number,
  grant: string | undefined,
) {
  const access = ctx.caller ? await eventAccess(ctx.db, ctx.caller, eventID) : undefined;
  if (access?.related) return;
  if (e.isTemplate === 1) throw notFound('event');
  const kind = grant === undefined ? undefined : await grantKind(ctx.db, grant, eventID, ctx.now, e.accessCode);
  if (e.visible !== 1) {
    // A preview is for looking: nobody registers before the event is published.
    if (kind === 'preview') throw new ApiError(403, PREVIEW_REFUSED);
    throw notFound('event');
  }
  // Only the access code's grant lets anyone register for a private event: a preview link passed on does not.
  if (e.public !== 1 && kind !== 'access')
    throw new ApiError(403, 'this event is private: send the grant of event.checkAccessCode');
}

/**
 * The answer of form.respondRegistration: the attendee record of spec §2.3 plus `tokenID` and
 * `duplicate` (docs/api/registration.md "The answer").
 */
export type RegistrationAnswer = RecordOf<typeof registrationWire>;
/** The answer's builder: exactly the keys of its wire row, or it does not compile. */
const answer = recordOf(registrationWire);

/**
 * What the answer about an existing person may show of their record in this event, once this call
 * has enrolled them: the registration it has just written (the profile sent, its state, the tags sent),
 * never what was stored before or elsewhere (the check-in code, sign-in history, speaker and sponsor
 * links, the identity's account ids).
 */
const WRITTEN_BY_THE_CALL = [
  ...EVENT_PROFILE_FIELDS, 'personName', 'headline', 'personHeadline', 'eventID', 'personID', 'enrollmentID',
  'level', 'approved', 'paid', 'rsvp', 'present', 'private', 'language', 'personLanguage', 'origin',
  'enrollmentDate', 'updatedDate', 'tags',
] as const; // prettier-ignore

/**
 * The record's fields, each blank ('' / 0 / []) unless `keep` names it: a whitelist, so a field added
 * to the record later shows nothing stored here until it is named.
 */
function only<R extends object>(record: R, keep: Record<string, unknown>): R {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[k] = Array.isArray(v) ? [] : typeof v === 'number' ? 0 : '';
  return Object.assign(out, keep) as R;
}

const pick = (record: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]));

/** The event's own profile of the registrant: exactly what the form sent. */
function eventProfile(p: RegistrationInput, username: string) {
  return {
    username,
    email: p.email,
    firstName: p.firstName,
    lastName: p.lastName,
    name: `${p.firstName} ${p.lastName}`.trim(),
    image: p.image ?? '',
    telephone: p.telephone ?? '',
    role: p.role ?? '',
    company: p.company ?? '',
  };
}

/** Every key of the answer blank ('' / []), for an answer about someone who is not an attendee. */
const BLANK = Object.fromEntries(
  Object.keys(registrationWire.shape)
    .filter((k) => k !== 'feedbacks')
    .map((k) => [k, k === 'tags' || k === 'guests' ? [] : '']),
) as unknown as RegistrationAnswer;

/**
 * The answer about an application (docs/api/applicants.md): what the form sent, the ids, and approved
 * -1 (spec §3: not registered, until an admin approves it). No token: an applicant is no attendee yet.
 */
function applicationAnswer(
  p: RegistrationInput,
  username: string,
  language: string,
  personID: number,
  duplicate: 0 | 1,
): RegistrationAnswer {
  const profile = eventProfile(p, username);
  const headline = [profile.role, profile.company].filter((x) => x !== '').join(', ');
  return answer({
    ...BLANK,
    ...profile,
    personName: profile.name,
    headline,
    personLanguage: language,
    eventID: p.eventID,
    personID,
    approved: -1,
    tokenID: '',
    duplicate,
  });
}

/**
 * What a repeat (`duplicate` 1) shows to a caller who is not the person: what the call sent and the
 * event, nothing of the registration (or application) it found. Its ids and state would tell anyone that
 * an address is registered, as whom and how (docs/api/registration.md "Double submit"); the same keys
 * whatever it found, so a waiting list or an application is not told from an attendee either.
 */
const ECHOED: ReadonlySet<string> = new Set([
  'username', 'email', 'firstName', 'lastName', 'name', 'personName', 'image', 'telephone', 'role', 'company',
  'headline', 'eventID', 'tokenID', 'duplicate', 'emailed',
]); // prettier-ignore

/**
 * form.respondRegistration's answer as its caller is shown it (Operation.shown: after the change, which
 * names the real person, is recorded). A repeat keeps its ids and state only for the person themselves
 * (their token) and the event's admins (company admins, operators); anyone else gets ECHOED and blanks.
 */
export async function shownRegistration(
  ctx: Work,
  eventID: number,
  rows: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const [row] = rows;
  if (row === undefined || Number(row.duplicate) !== 1) return rows;
  const caller = ctx.caller;
  if (caller !== undefined && caller.personID === Number(row.personID)) return rows;
  if (caller !== undefined && ((await eventAccess(ctx.db, caller, eventID))?.level ?? 0) & LEVEL.ADMIN) return rows;
  const blank = Object.entries(row).map(([k, v]) => [k, ECHOED.has(k) ? v : Array.isArray(v) ? [] : '']);
  return [Object.fromEntries(blank)];
}

/** The person with the e-mail (or with it as username), locked on PostgreSQL so two submits for one
 * existing person meet here rather than on the insert. */
const personByEmail = compiledOnce(1, (db, email: string) => {
  const lookup = db
    .selectFrom('person')
    .select(['personID', 'username'])
    .where((w) => w.or([w('email', '=', email), w('username', '=', email)]))
    .orderBy('personID')
    .limit(1);
  return isPostgres(db) ? lookup.forUpdate() : lookup;
});

/** A new person, unless the username is taken (then no row). */
const createPerson = compiledOnce(
  6,
  (db, username: string, email: string, firstName: string, lastName: string, name: string, now: number) =>
    db
      .insertInto('person')
      .values({ username, email, firstName, lastName, name, dateCreated: now })
      .onConflict((oc) => oc.column('username').doNothing())
      .returning('personID'),
);

/**
 * The person behind the form's e-mail: an existing one (found by e-mail, or by the custom username
 * when it is theirs), or a new one created by this call (isNew). Nothing of an existing person is
 * changed. No duplicate person under concurrency: the insert is keyed by the unique username
 * (on conflict do nothing, then read it, locking its row on PostgreSQL), so two submits of one
 * e-mail meet on one person row.
 */
async function findOrCreatePerson(
  ctx: Work,
  p: RegistrationInput,
  username: string,
): Promise<{ person: { personID: number }; isNew: boolean }> {
  const db = ctx.db;
  const byEmail = (await personByEmail(db, [p.email])).rows[0];
  if (byEmail) {
    // A login name is its owner's: a custom username registers only the person with that e-mail.
    if (username !== p.email && byEmail.username !== username) {
      const owner = await findPersonByUsername(db, username);
      if (owner) throw conflict('username is already taken');
    }
    return { person: byEmail, isNew: false };
  }
  const name = `${p.firstName} ${p.lastName}`.trim();
  const created = (await createPerson(db, [username, p.email, p.firstName, p.lastName, name, ctx.now])).rows[0];
  if (created) return { person: created, isNew: true };
  let existing = db.selectFrom('person').select(['personID', 'email']).where('username', '=', username);
  if (isPostgres(db)) existing = existing.forUpdate();
  const found = await existing.executeTakeFirst();
  // Gone between the two statements (removed meanwhile): the client may simply send again.
  if (!found) throw conflict('registration conflicted with another change, send it again');
  if (found.email !== p.email && username !== p.email) throw conflict('username is already taken');
  return { person: found, isNew: false };
}

/**
 * Registers someone through the public form (spec §4.4), inside the call's write transaction.
 *
 * Order: the event and its form (one query) → readable, open, consent, invite, answers, tags (no write
 * yet) → the event's row lock when capacity or a custom
 * username needs it → find or create the person → an existing registration is answered as it is
 * (a double submit) → capacity → the eventPerson row, answers, tags, token.
 *
 * No duplicate attendee under concurrency: the person is keyed by the unique username (default: the
 * e-mail; insert … on conflict do nothing, then read it, locking its row on PostgreSQL), so two submits
 * of one e-mail meet on one person row and the second sees the first's registration.
 */
export async function register(ctx: Work, p: RegistrationInput, passwordHash = ''): Promise<RegistrationAnswer> {
  const db = ctx.db;
  const form = await formOf(db, p.eventID);
  if (!form) throw notFound('event');
  const { event: e, fields } = form;
  await checkReadable(ctx, e, p.eventID, p.grant);

  const closed = windowReason(e, ctx.now);
  if (closed) throw new ApiError(403, CLOSED_MESSAGES[closed]);
  if (e.consent !== '' && p.consent !== 1) throw badRequest(`consent ${REFUSED.consent}`);
  if (e.inviteRequired === 1) {
    if (p.invite === undefined) throw new ApiError(403, 'invite is required: this event registers invitees only');
    if (p.invite !== p.email) throw new ApiError(403, 'invite must be the invited e-mail address being registered');
    const invited = await db
      .selectFrom('eventInvite')
      .select('email')
      .where('eventID', '=', p.eventID)
      .where('email', '=', p.invite)
      .executeTakeFirst();
    if (!invited) throw new ApiError(403, 'invite is not on the invitee list of this event');
  }
  const guests = p.guests ?? [];
  if (guests.length > 0) {
    // As event.guest.bind rules (guest/rules.ts), checked before anything is written.
    if (e.guestsForMember === 0) throw new ApiError(403, 'this event does not allow guests');
    if (guests.length > e.guestsForMember)
      throw conflict(`an attendee may bring at most ${e.guestsForMember} guests to this event`);
    if (e.approvalRequired === 1 || p.apply === true)
      throw conflict('an application cannot bring guests: they are added once it is approved');
  }
  const answers = readFeedbackContent(p.feedbackContent, fields);
  const tagIDs = [...new Set(p.tagIDs ?? [])];
  // Read as the record reads its tags (name, color, that order): a registration that is not a
  // duplicate ends with exactly these tags in the event, so its answer shows them without a re-read.
  let tags: RecordTag[] = [];
  if (tagIDs.length > 0) {
    const found = await db
      .selectFrom('tag')
      .select(['tagID', 'name', 'color'])
      .where('tagID', 'in', tagIDs)
      .where('eventID', '=', p.eventID)
      .where('kind', '=', 'attendee')
      .orderBy('name')
      .orderBy('tagID')
      .execute();
    tags = found;
    const ok = new Set(found.map((t) => t.tagID));
    const bad = tagIDs.find((t) => !ok.has(t));
    if (bad !== undefined) throw badRequest(`tagIDs ${bad} is not an attendee tag of this event`);
  }

  // Hashed by the operation's prepare step, before the transaction; '' when no password was given
  // (then no event password exists).

  const username = p.username ?? p.email;
  const customUsername = username !== p.email;
  // Capacity is check-then-insert; a custom username cannot rely on the unique username for the
  // e-mail's uniqueness. Both are serialized on the event's row.
  if (e.capacity > 0 || customUsername) await lockRow(db, 'event', p.eventID);

  const { person, isNew } = await findOrCreatePerson(ctx, p, username);
  const options: RecordOptions = { eventLanguage: e.language };
  // Another person's record is read as nobody in particular: their account ids stay blank.
  // written: the registration's tags are exactly those this call has just written (not a duplicate).
  const recordOf = async (own: boolean, written = false) => {
    const viewer = { personID: own ? person.personID : 0, limited: false };
    return (await attendeeRecord(db, p.eventID, person.personID, viewer, options, written ? tags : undefined))!;
  };
  if (!isNew) {
    const registered = await db
      .selectFrom('eventPerson')
      .select(['enrollmentID', 'approved', 'rsvp', 'private', 'enrollmentDate'])
      .where('eventID', '=', p.eventID)
      .where('personID', '=', person.personID)
      .executeTakeFirst();
    // Already registered: answered as such, unchanged, with no token (person.signIn is the way back).
    // The stored profile is not what this call sent: the record shows the sent fields, the ids and
    // the registration's state, nothing else.
    if (registered) {
      const profile = eventProfile(p, username);
      const headline = [profile.role, profile.company].filter((x) => x !== '').join(', ');
      const sent = { ...profile, personName: profile.name, headline, personLanguage: e.language };
      const ids = { eventID: p.eventID, personID: person.personID, ...registered };
      // Guests sent with a repeat are not bound: knowing an e-mail adds nothing to its registration.
      return answer({
        ...only(await recordOf(false), { ...sent, ...ids }),
        tokenID: '',
        duplicate: 1,
        guests: [],
        emailed: 0,
      });
    }
  }

  // An event that needs approval (or event.applicant.bind) records an application: no attendee, no
  // capacity check yet (event.applicant.approve makes both), answered with approved -1 (spec §3: not
  // registered). The same person applying again is answered their pending application (duplicate 1).
  const applied = await applicationOf(db, p.eventID, person.personID);
  if (applied?.approved === 0) return applicationAnswer(p, username, p.language || e.language, person.personID, 1);
  if (e.approvalRequired === 1 || p.apply === true) {
    // An application approved once, whose attendee was removed since, gives way to the new one.
    if (applied) await deleteApplication(db, p.eventID, person.personID);
    await insertApplication(db, {
      eventID: p.eventID,
      personID: person.personID,
      ...eventProfile(p, username),
      passwordHash: isNew ? passwordHash : '',
      answers: JSON.stringify([...answers]),
      tagIDs: JSON.stringify(tagIDs),
      rsvp: p.rsvp ?? 0,
      private: p.private ?? 0,
      origin: p.origin ?? 'form',
      language: p.language ?? '',
      dateCreated: ctx.now,
    });
    return applicationAnswer(p, username, p.language || e.language, person.personID, 0);
  }

  let approved = 1;
  // Guests count against capacity (docs/api/guests.md); the registrant and their guests take their
  // places together or not at all (a guest needs an approved host: never on the waiting list).
  if (e.capacity > 0) {
    const taken = await placesTaken(db, p.eventID, e.capacity);
    if (guests.length > 0 && taken + 1 + guests.length > e.capacity)
      throw conflict(`${CLOSED_MESSAGES.full}: no place left for ${guests.length === 1 ? 'a guest' : `${guests.length} guests`}`); // prettier-ignore
    if (taken >= e.capacity) {
      if (e.waitingList !== 1) throw conflict(CLOSED_MESSAGES.full);
      approved = 0;
    }
  }
  const rsvp = p.rsvp ?? 0;
  const isPrivate = p.private ?? 0;
  await enrollInEvent(
    db,
    {
      eventID: p.eventID,
      personID: person.personID,
      level: LEVEL.USER,
      approved,
      rsvp,
      private: isPrivate,
      // The event password only for a person this call created: an existing person's is theirs.
      passwordHash: isNew ? passwordHash : '',
      origin: p.origin ?? 'form',
      language: p.language,
      ...eventProfile(p, username),
    },
    ctx.now,
  );
  if (!isNew) {
    // Answers and tags left from an earlier registration in this event (removed since) are not kept.
    for (const table of ['feedbackAnswer', 'eventPersonTag'] as const)
      await db.deleteFrom(table).where('eventID', '=', p.eventID).where('personID', '=', person.personID).execute();
  }
  if (answers.size > 0) {
    const personID = person.personID;
    const rows = [...answers].map(([feedbackID, value]) => ({ feedbackID, personID, eventID: p.eventID, value }));
    await db.insertInto('feedbackAnswer').values(rows).execute();
  }
  if (tagIDs.length > 0) {
    await db
      .insertInto('eventPersonTag')
      .values(tagIDs.map((tagID) => ({ eventID: p.eventID, personID: person.personID, tagID })))
      .execute();
  }
  const bound = [];
  for (const g of guests) {
    const row = await insertGuest(db, { eventID: p.eventID, hostID: person.personID, ...g, dateCreated: ctx.now });
    bound.push(guestRecord(row));
    // Each guest is a change of its own, as event.guest.bind records it (webhooks, push): the call's
    // change is the registration's.
    await recordChange(db, {
      operation: 'event.guest.bind',
      kind: 'event.guest',
      companyID: e.companyID,
      eventID: p.eventID,
      objectID: row.eventGuestID,
      ids: { eventID: p.eventID, hostID: person.personID, eventGuestID: row.eventGuestID },
    });
  }
  // The badge code and a token belong to whoever proves to be the person: here, only its creator.
  if (!isNew) {
    const record = await recordOf(false, true);
    return answer({
      ...only(record, pick(record, WRITTEN_BY_THE_CALL)),
      tokenID: '',
      duplicate: 0,
      guests: bound,
      emailed: 0,
    });
  }
  const tokenID = p.login === 1 ? await issueToken(ctx, person.personID, 'event', p.eventID) : '';
  return answer({ ...(await recordOf(true, true)), tokenID, duplicate: 0, guests: bound, emailed: 0 });
}
