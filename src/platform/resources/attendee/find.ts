import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Paged } from '../../db/page.ts';
import { MAX_ID } from '../../schemas.ts';
import { badRequest, notFound } from '../../errors.ts';
import { LEVEL } from '../../auth/levels.ts';
import { SELECTED_APPROVAL } from '../approval.ts';
import {
  attendeeBase,
  attendeeRecords,
  downloadedExpr,
  selectAttendee,
  type AttendeeBase,
  type AttendeeRecord,
  type AttendeeViewer,
} from './record.ts';
import { recordOptions } from './profile.ts';
import { eventPersonOf } from '../rows.ts';

// The search of event.person.find (spec §4.4): selections, filters and orders over the attendees of
// one event, one page at a time. The operation checks what the caller may ask; this reads.

/** `feedback_<feedbackID>`: the answer to that custom field equals the value (any case). */
export const FEEDBACK = /^feedback_[1-9]\d{0,9}$/;

export const ATTENDEE_SELECTIONS = [
  'all', 'admin', 'not-admin', 'speakers', 'permission', 'collector', 'custom-list', 'with-email', 'without-email',
  'approved', 'denied', 'nfc-synced', 'nfc-not-synced', 'printed', 'not-printed', 'accepted-rsvp', 'declined-rsvp',
  'waiting-rsvp', 'downloaded', 'not-downloaded', 'incomplete-profile', 'present', 'not-present', 'virtual',
  'not-virtual', 'now-virtual', 'public', 'private', 'favorited',
] as const; // prettier-ignore
export type AttendeeSelection = (typeof ATTENDEE_SELECTIONS)[number];

export const ATTENDEE_ORDERS = {
  level: 'eventPerson.level', memberID: 'eventPerson.personID', name: 'eventPerson.name', firstName: 'eventPerson.firstName',
  lastName: 'eventPerson.lastName', username: 'eventPerson.username', role: 'eventPerson.role', company: 'eventPerson.company',
  email: 'eventPerson.email', assistantEmail: 'eventPerson.assistantEmail', private: 'eventPerson.private',
  rsvp: 'eventPerson.rsvp', present: 'eventPerson.present', origin: 'eventPerson.origin', ticket: 'eventPerson.ticketID',
  language: 'eventPerson.language', enrollmentDate: 'eventPerson.enrollmentDate',
  updatedDate: 'eventPerson.updatedDate', printed: 'eventPerson.prints', device: 'eventPerson.personID',
  downloaded: 'downloaded', rand: 'rand',
} as const; // prettier-ignore
export type AttendeeOrder = keyof typeof ATTENDEE_ORDERS;
/** Text columns sort without regard to case, the same on both stores. */
const TEXT_ORDERS = new Set<AttendeeOrder>([
  'name', 'firstName', 'lastName', 'username', 'role', 'company', 'email', 'assistantEmail', 'origin', 'language',
]); // prettier-ignore

const contains = (column: string, v: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${v.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`} escape '\\'`;

/** What one event.person.find call asks for, validated. */
export interface AttendeeSearch {
  readonly eventID: number;
  readonly selection: ReadonlySet<AttendeeSelection>;
  readonly tags: readonly number[];
  /** Filters by name: the named ones, feedback_<id>, and the query/queryKey pair. */
  readonly filters: readonly (readonly [string, unknown])[];
  readonly listID?: number;
  readonly personID?: number;
  readonly order: AttendeeOrder;
  readonly desc: boolean;
  readonly limit: number;
  readonly offset: number;
  readonly paginated: boolean;
  readonly fullProfile: boolean;
  readonly now: number;
  /**
   * Read by key (a report's pages: ReportPage of the kernel, by shape): the page starts after
   * `keyset.after` (the sort key and personID of the previous page's last row) instead of at `offset`,
   * and `keyset.next` is set to this page's last key. Not for order=rand (no key: read by offset).
   */
  readonly keyset?: { readonly after: unknown; next?: unknown };
}

/** Where a page read by key ended: its last row's sort key and personID. */
type AttendeeKey = readonly [string | number, number];

export async function findAttendees(
  db: Kysely<DB>,
  search: AttendeeSearch,
  viewer: AttendeeViewer,
): Promise<Paged<AttendeeRecord>> {
  const filters = search.filters;
  const feedbackIDs = [
    ...new Set(filters.filter(([n]) => FEEDBACK.test(n)).map(([n]) => Number(n.slice('feedback_'.length)))),
  ];
  // An id past the integer column names no custom field (and PostgreSQL would refuse to compare it).
  if (feedbackIDs.some((n) => n > MAX_ID)) throw notFound('feedback');
  if (feedbackIDs.length > 0) {
    const known = await db
      .selectFrom('feedback')
      .select('feedbackID')
      .where('eventID', '=', search.eventID)
      .where('feedbackID', 'in', feedbackIDs)
      .execute();
    if (known.length !== feedbackIDs.length) throw notFound('feedback');
  }

  let query: AttendeeBase = attendeeBase(db, search.eventID);
  const sel = search.selection;
  if (sel.has('custom-list')) {
    if (search.listID === undefined) throw badRequest('listID cannot be empty for the custom-list selection');
    const list = await db
      .selectFrom('list')
      .select('listID')
      .where('listID', '=', search.listID)
      .where('eventID', '=', search.eventID)
      .executeTakeFirst();
    if (!list) throw notFound('list');
  }
  if (sel.has('favorited') && search.personID !== undefined) {
    const member = await eventPersonOf(db, search.eventID, search.personID).select('personID').executeTakeFirst();
    if (!member) throw notFound('person');
  }
  const virtual = sel.has('virtual') || sel.has('not-virtual') || sel.has('now-virtual');
  const event = virtual
    ? await db
        .selectFrom('event')
        .select(['presential', 'dateBegin', 'dateEnd'])
        .where('eventID', '=', search.eventID)
        .executeTakeFirstOrThrow()
    : undefined;
  const none = sql<SqlBool>`1 = 0`;
  const bits = (mask: number, set: boolean) =>
    sql<SqlBool>`(${sql.ref('eventPerson.level')} & ${sql.lit(mask)}) ${sql.raw(set ? '<>' : '=')} 0`;

  for (const s of sel) {
    switch (s) {
      case 'all': break;
      case 'admin': query = query.where(bits(LEVEL.ADMIN, true)); break;
      case 'not-admin': query = query.where(bits(LEVEL.ADMIN, false)); break;
      case 'collector': query = query.where(bits(LEVEL.COLLECTOR, true)); break;
      case 'speakers':
        query = query.where((e) => e.or([
          bits(LEVEL.SPEAKER, true),
          e.exists(e.selectFrom('speaker').select('speaker.speakerID')
            .whereRef('speaker.eventID', '=', 'eventPerson.eventID')
            .whereRef('speaker.personID', '=', 'eventPerson.personID')),
        ]));
        break;
      case 'permission': query = query.where('eventPerson.profileID', '>', 0); break;
      case 'custom-list':
        query = query.where('eventPerson.personID', 'in', (e) =>
          e.selectFrom('listPerson').select('listPerson.personID').where('listPerson.listID', '=', search.listID!));
        break;
      case 'with-email': query = query.where('eventPerson.email', '<>', ''); break;
      case 'without-email': query = query.where('eventPerson.email', '=', ''); break;
      // Spec §3 (domain/approval.ts): denied = registered and not approved (0), as in every .find.
      case 'approved': case 'denied': query = query.where('eventPerson.approved', '=', SELECTED_APPROVAL[s]); break;
      case 'nfc-synced': query = query.where('eventPerson.nfc', '<>', ''); break;
      case 'nfc-not-synced': query = query.where('eventPerson.nfc', '=', ''); break;
      case 'printed': query = query.where('eventPerson.prints', '>', 0); break;
      case 'not-printed': query = query.where('eventPerson.prints', '=', 0); break;
      case 'accepted-rsvp': query = query.where('eventPerson.rsvp', '=', 1); break;
      case 'declined-rsvp': query = query.where('eventPerson.rsvp', '=', 0); break;
      case 'waiting-rsvp': query = query.where('eventPerson.rsvp', '=', -1); break;
      case 'downloaded': query = query.where(sql<SqlBool>`${downloadedExpr} = 1`); break;
      case 'not-downloaded': query = query.where(sql<SqlBool>`${downloadedExpr} = 0`); break;
      case 'incomplete-profile':
        query = query.where((e) => e.or([e('eventPerson.role', '=', ''), e('eventPerson.company', '=', ''), e('eventPerson.image', '=', '')]));
        break;
      case 'present': query = query.where('eventPerson.present', '=', 1); break;
      case 'not-present': query = query.where('eventPerson.present', '=', 0); break;
      // Podium has no per-attendee virtual attendance: everyone of an online event is virtual.
      case 'virtual': if (event!.presential !== 0) query = query.where(none); break;
      case 'not-virtual': if (event!.presential === 0) query = query.where(none); break;
      case 'now-virtual':
        if (event!.presential !== 0 || !(event!.dateBegin <= search.now && search.now <= event!.dateEnd)) query = query.where(none);
        break;
      case 'public': query = query.where('eventPerson.private', '=', 0); break;
      case 'private': query = query.where('eventPerson.private', '=', 1); break;
      // Podium stores no favorites yet: nobody is anybody's favorite.
      case 'favorited': query = query.where(none); break;
    } // prettier-ignore
  }
  if (search.tags.length > 0)
    query = query.where('eventPerson.personID', 'in', (e) =>
      e
        .selectFrom('eventPersonTag')
        .select('eventPersonTag.personID')
        .where('eventPersonTag.eventID', '=', search.eventID)
        .where('eventPersonTag.tagID', 'in', search.tags),
    );

  for (const [name, v] of filters) {
    switch (name) {
      case 'name': case 'username': case 'role': case 'company':
        query = query.where(contains(`eventPerson.${name}`, v as string)); break;
      case 'email':
        query = query.where(contains('eventPerson.email', v as string));
        // An event-scope token does not see private attendees' e-mails, so it cannot find them by one.
        if (viewer.limited) query = query.where((e) => e.or([e('eventPerson.private', '=', 0), e('eventPerson.personID', '=', viewer.personID)]));
        break;
      case 'assistantEmail': query = query.where(contains('eventPerson.assistantEmail', v as string)); break;
      case 'updatedBeforeDate': query = query.where('eventPerson.updatedDate', '<', v as number); break;
      case 'updatedAfterDate': query = query.where('eventPerson.updatedDate', '>=', v as number); break;
      case 'ticket': query = query.where('eventPerson.ticketID', '=', v as number); break;
      default: {
        const feedbackID = Number(name.slice('feedback_'.length));
        query = query.where((e) => e.exists(e.selectFrom('feedbackAnswer').select('feedbackAnswer.personID')
          .where('feedbackAnswer.feedbackID', '=', feedbackID)
          .whereRef('feedbackAnswer.personID', '=', 'eventPerson.personID')
          .where(sql<SqlBool>`lower(${sql.ref('feedbackAnswer.value')}) = ${String(v).toLowerCase()}`)));
      }
    } // prettier-ignore
  }

  const order: AttendeeOrder = search.order;
  const dir = search.desc ? sql.raw('desc') : sql.raw('asc');
  const column = ATTENDEE_ORDERS[order];
  const key =
    order === 'rand'
      ? sql`random()`
      : order === 'downloaded'
        ? downloadedExpr
        : TEXT_ORDERS.has(order)
          ? sql`lower(${sql.ref(column)})`
          : sql.ref(column);
  const keyset = order === 'rand' ? undefined : search.keyset;
  const after = keyset?.after as AttendeeKey | undefined;
  if (after) {
    // (key, personID) past the last row's, written so that both stores walk the order's index from there
    // (SQLite does not for a row-value comparison): key beyond it, or the same key and a later person.
    const [k, id] = after;
    const [past, atOrPast] = search.desc ? ['<', '<='] : ['>', '>='];
    const person = sql.ref('eventPerson.personID');
    query = query.where(
      sql<SqlBool>`${key} ${sql.raw(atOrPast)} ${k} and (${key} ${sql.raw(past)} ${k} or ${person} ${sql.raw(past)} ${id})`,
    );
  }
  const rows = await selectAttendee(query)
    .$if(keyset !== undefined, (q) => q.select(sql<string | number>`${key}`.as('sortKey')))
    .orderBy(sql`${key} ${dir}`)
    .orderBy(sql`${sql.ref('eventPerson.personID')} ${dir}`)
    .limit(search.limit)
    .offset(after ? 0 : search.offset)
    .execute();
  const last = rows.at(-1) as (typeof rows)[number] & { sortKey?: string | number };
  if (keyset && last) keyset.next = [last.sortKey!, last.personID] satisfies AttendeeKey;
  const records = await attendeeRecords(
    db,
    search.eventID,
    rows,
    viewer,
    await recordOptions(db, search.eventID, search.fullProfile),
  );
  if (!search.paginated) return records;
  const { n } = await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows: records, total: Number(n) };
}
