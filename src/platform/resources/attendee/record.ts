import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { compiledOnce } from './compiled.ts';
import { EVENT_PROFILE_FIELDS, type DB } from '../../db/schema.ts';
import type { attendeeWire } from '../../../shared/wire/attendee.ts';
import type { RecordOf } from '../records.ts';

// The attendee record of spec §2.3. Every profile field is the event's own (eventPerson): what the
// person gave to this event, or what its admins set; the person row is the identity and is not shown
// (docs/api.md "People: identity and profiles"). Fields Podium has no data for are '' or 0.

/** The joined rows every attendee read starts from, narrowed by the caller (where, order, limit). */
export type AttendeeBase = SelectQueryBuilder<DB, 'eventPerson' | 'person', object>;

export function attendeeBase(db: Kysely<DB>, eventID: number): AttendeeBase {
  return db
    .selectFrom('eventPerson')
    .innerJoin('person', 'person.personID', 'eventPerson.personID')
    .where('eventPerson.eventID', '=', eventID);
}

// Of the person itself only what is theirs across events and never given to one: shown on the
// person's own record only. Everything an event sees of the profile is what was given to it.
const PERSON_COLUMNS = ['person.personID', 'person.timezone', 'person.socialAID', 'person.socialBID', 'person.socialCID'] as const; // prettier-ignore

/** The profile columns of eventPerson: what the person gave to this event. */
const PROFILE_COLUMNS = EVENT_PROFILE_FIELDS.map((f) => `eventPerson.${f}` as const);

const MEMBER_COLUMNS = [
  'eventPerson.eventID', 'eventPerson.enrollmentID', 'eventPerson.level', 'eventPerson.approved', 'eventPerson.rsvp',
  'eventPerson.origin', 'eventPerson.message', 'eventPerson.paid', 'eventPerson.present', 'eventPerson.private',
  'eventPerson.prints', 'eventPerson.enrollmentDate', 'eventPerson.updatedDate', 'eventPerson.language',
  'eventPerson.assistantEmail', 'eventPerson.nfc', 'eventPerson.qrCode', 'eventPerson.ticketID', 'eventPerson.profileID',
] as const; // prettier-ignore

/**
 * "Downloaded" (spec §2.3, meaning not shown): Podium has no app-install signal, so it counts a person
 * who has signed in for this event (an event-scope token of it, or a system-scope token).
 */
export const downloadedExpr = sql<number>`case when exists (select 1 from ${sql.table('token')} as tk where tk.${sql.ref('personID')} = ${sql.ref('eventPerson.personID')} and (tk.${sql.ref('scope')} = 'system' or tk.${sql.ref('targetID')} = ${sql.ref('eventPerson.eventID')})) then 1 else 0 end`;

/** The speaker row of the event linked to the person (spec §2.3 speakerID), null when none. */
const speakerExpr = sql<
  number | null
>`(select min(sp.${sql.ref('speakerID')}) from ${sql.table('speaker')} as sp where sp.${sql.ref('eventID')} = ${sql.ref('eventPerson.eventID')} and sp.${sql.ref('personID')} = ${sql.ref('eventPerson.personID')})`;

/** A sponsor of the event carries the person's e-mail. */
const sponsorExpr = sql<number>`case when ${sql.ref('eventPerson.email')} <> '' and exists (select 1 from ${sql.table('sponsor')} as so where so.${sql.ref('eventID')} = ${sql.ref('eventPerson.eventID')} and lower(so.${sql.ref('email')}) = ${sql.ref('eventPerson.email')}) then 1 else 0 end`;

/** The record's columns on a narrowed base query; computed ones are subqueries of the same statement. */
export function selectAttendee<O>(query: SelectQueryBuilder<DB, 'eventPerson' | 'person', O>) {
  return query
    .select(PERSON_COLUMNS)
    .select(PROFILE_COLUMNS)
    .select(MEMBER_COLUMNS)
    .select([downloadedExpr.as('downloaded'), speakerExpr.as('speakerID'), sponsorExpr.as('isSponsor')]);
}

export type AttendeeRow = Awaited<ReturnType<ReturnType<typeof selectAttendee>['execute']>>[number];

/**
 * An attendee record: exactly the keys of its wire row. The record below is one object literal typed
 * so, which does not compile with a key the row lacks or without one it has.
 */
export type AttendeeRecord = RecordOf<typeof attendeeWire>;

/** Who reads the records, which decides what they see (docs/api/attendees.md "Limited information"). */
export interface AttendeeViewer {
  /** The caller's person (0 for none). */
  readonly personID: number;
  /** Event-scope token (spec §5.6): other attendees' contact and badge data are limited. */
  readonly limited: boolean;
  /** The level the caller acts with, shown on its own record instead of the stored one (event scope downgrades Admin). */
  readonly ownLevel?: number;
}

export interface RecordOptions {
  /** The event's language: personLanguage when the attendee chose none. */
  readonly eventLanguage: string;
  /** fullProfile=1: custom-field answers (`feedbacks`) and the person's time zone. */
  readonly fullProfile?: boolean;
}

/** Hidden from event-scope readers on other attendees' records: login name, badge codes, admin data. */
const ALWAYS_LIMITED = ['username', 'qrCode', 'nfc', 'message', 'assistantEmail'] as const;
/** Hidden from event-scope readers on other attendees' records when the attendee is private. */
const PRIVATE_LIMITED = ['email', 'telephone', 'socialAID', 'socialBID', 'socialCID'] as const;

/** Above this many people, related rows are read for the whole event and matched in memory. */
const IN_LIST_MAX = 500;

async function forPeople<T extends { personID: number }>(
  ids: readonly number[],
  read: (ids: readonly number[] | undefined) => Promise<T[]>,
): Promise<Map<number, T[]>> {
  const wanted = new Set(ids);
  const rows = ids.length === 0 ? [] : await read(ids.length <= IN_LIST_MAX ? ids : undefined);
  const map = new Map<number, T[]>();
  for (const r of rows) {
    if (!wanted.has(r.personID)) continue;
    const list = map.get(r.personID);
    if (list) list.push(r);
    else map.set(r.personID, [r]);
  }
  return map;
}

/** One of a record's `tags`, as read for it: ordered by name, then tagID. */
export interface RecordTag {
  readonly tagID: number;
  readonly name: string;
  readonly color: string;
}

/**
 * Attendee records of spec §2.3 for rows of one event, in the order of `rows`: every field, the
 * `tags` array and speakerID; with fullProfile the `feedbacks` array. Two queries at most whatever
 * the number of rows (no query per row). `knownTags`: the people's tags when the caller has just
 * written them all in this transaction (then they are not read again), in the order of the read.
 */
export async function attendeeRecords(
  db: Kysely<DB>,
  eventID: number,
  rows: readonly AttendeeRow[],
  viewer: AttendeeViewer,
  options: RecordOptions,
  knownTags?: ReadonlyMap<number, readonly RecordTag[]>,
): Promise<AttendeeRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.personID);
  const waiting = rows.filter((r) => Number(r.approved) === 0).map((r) => r.personID);
  const [tags, fields, answers, positions] = await Promise.all([
    knownTags ??
      forPeople(ids, (only) =>
        db
          .selectFrom('eventPersonTag')
          .innerJoin('tag', 'tag.tagID', 'eventPersonTag.tagID')
          .select(['eventPersonTag.personID', 'tag.tagID', 'tag.name', 'tag.color'])
          .where('eventPersonTag.eventID', '=', eventID)
          .$if(only !== undefined, (w) => w.where('eventPersonTag.personID', 'in', only!))
          .orderBy('tag.name')
          .orderBy('tag.tagID')
          .execute(),
      ),
    options.fullProfile
      ? db
          .selectFrom('feedback')
          .select(['feedbackID', 'name'])
          .where('eventID', '=', eventID)
          .orderBy('position')
          .orderBy('feedbackID')
          .execute()
      : [],
    options.fullProfile
      ? forPeople(ids, (only) =>
          db
            .selectFrom('feedbackAnswer')
            .select(['personID', 'feedbackID', 'value'])
            .where('eventID', '=', eventID)
            .$if(only !== undefined, (w) => w.where('personID', 'in', only!))
            .execute(),
        )
      : new Map<number, { personID: number; feedbackID: number; value: string }[]>(),
    waitingPositions(db, eventID, waiting),
  ]);

  return rows.map((r) => {
    const own = r.personID === viewer.personID;
    const composed = [r.role, r.company].filter((s) => s !== '').join(', ');
    const out: AttendeeRecord = {
      username: r.username,
      // Of the person's identity, not given to the event: shown on their own record only.
      socialAID: own ? r.socialAID : '',
      socialBID: own ? r.socialBID : '',
      socialCID: own ? r.socialCID : '',
      email: r.email,
      telephone: r.telephone,
      qrCode: r.qrCode,
      ebQrCode: '',
      nfc: r.nfc,
      eventID: r.eventID,
      personID: r.personID,
      // The registration's own id (migration 0004), distinct from the activity enrollments' ids.
      enrollmentID: r.enrollmentID,
      firstName: r.firstName,
      lastName: r.lastName,
      name: r.name,
      personName: r.name,
      role: r.role,
      company: r.company,
      summary: r.summary,
      image: r.image,
      headline: r.headline !== '' ? r.headline : composed,
      personHeadline: r.headline,
      city: r.city,
      socialA: r.socialA,
      socialB: r.socialB,
      socialC: r.socialC,
      socialD: r.socialD,
      website: r.website,
      // The place in the event's waiting list (approved 0), else 0 (docs/api/attendees.md).
      position: positions.get(r.personID) ?? 0,
      level: own && viewer.ownLevel !== undefined ? viewer.ownLevel : r.level,
      ebUserID: '',
      mkUserID: '',
      approved: r.approved,
      paid: r.paid,
      rsvp: r.rsvp,
      present: r.present,
      message: r.message,
      private: r.private,
      meetingQuotaID: 0,
      meetingAutoConfirm: 0,
      engagement: 0,
      language: r.language,
      personLanguage: r.language !== '' ? r.language : options.eventLanguage,
      origin: r.origin,
      crmAID: '',
      crmAType: '',
      crmBID: '',
      enrollmentDate: r.enrollmentDate,
      updatedDate: r.updatedDate,
      meetingQuotaName: '',
      meetingQuotaAmount: 0,
      device: '',
      downloaded: Number(r.downloaded),
      favorite: 0,
      ally: 0,
      isSponsor: Number(r.isSponsor),
      prints: r.prints,
      profileID: r.profileID,
      ticketID: r.ticketID,
      assistantEmail: r.assistantEmail,
      ticketName: '',
      ticketEntrance: '',
      tags: (tags.get(r.personID) ?? []).map(({ tagID, name, color }) => ({ tagID, name, color })),
      speakerID: r.speakerID ?? '',
    };
    const limited = viewer.limited && !own;
    if (options.fullProfile) {
      out.timezone = own ? r.timezone : '';
      const given = new Map((answers.get(r.personID) ?? []).map((a) => [a.feedbackID, a.value]));
      out.feedbacks = limited
        ? []
        : fields.map((f) => ({ feedbackID: f.feedbackID, name: f.name, value: given.get(f.feedbackID) ?? '' }));
    }
    if (limited) {
      for (const k of ALWAYS_LIMITED) out[k] = '';
      if (r.private === 1) for (const k of PRIVATE_LIMITED) out[k] = '';
    }
    return out;
  });
}

/**
 * The statement of one attendee's row, compiled once per store kind (compiledOnce): Kysely's compile of
 * the record's ~80 columns costs several times what running it does (≈100 µs a call, measured), and one
 * attendee is read on hot paths (every registration answers its record).
 */
const attendeeRow = compiledOnce(2, (db, eventID: number, personID: number) =>
  selectAttendee(attendeeBase(db, eventID).where('eventPerson.personID', '=', personID)),
);

/**
 * The place of each waiting attendee (approved 0) among `personIDs` in the event's queue (1…n,
 * registration order, attendee/waiting.ts): one statement, run only when a record shows someone waiting.
 */
async function waitingPositions(
  db: Kysely<DB>,
  eventID: number,
  personIDs: readonly number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (personIDs.length === 0) return out;
  const wanted = new Set(personIDs);
  const rows = await db
    .selectFrom('eventPerson')
    .select(['personID', sql<number>`row_number() over (order by ${sql.ref('enrollmentID')})`.as('position')])
    .where('eventID', '=', eventID)
    .where('approved', '=', 0)
    .execute();
  for (const r of rows) if (wanted.has(r.personID)) out.set(r.personID, Number(r.position));
  return out;
}

/**
 * One attendee's record, or undefined when the person is not an attendee of the event. `knownTags`:
 * all their tags in this event, when the caller has just written them (see attendeeRecords).
 */
export async function attendeeRecord(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  viewer: AttendeeViewer,
  options: RecordOptions,
  knownTags?: readonly RecordTag[],
): Promise<AttendeeRecord | undefined> {
  const { rows } = await attendeeRow(db, [eventID, personID]);
  const known = knownTags && new Map([[personID, knownTags]]);
  return (await attendeeRecords(db, eventID, rows, viewer, options, known))[0];
}
