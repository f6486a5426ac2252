import { z } from 'zod';
import { sql, type Expression, type SqlBool } from 'kysely';
import { defineOperation, q, qOpt, LEVEL, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, type Param } from '../../../table.ts';
import { bit, id, MAX_ID, orientation, selection, text, timestamp } from '../../../schemas.ts';
import { ApiError, badRequest, notFound } from '../../../errors.ts';
import {
  attendeeBase,
  attendeeRecords,
  downloadedExpr,
  selectAttendee,
  type AttendeeBase,
} from '../../../domain/attendee/record.ts';
import { READERS, recordOptions, viewerOf } from '../../../domain/attendee/profile.ts';
import { SELECTED_APPROVAL } from '../../../domain/approval.ts';

const SELECTIONS = [
  'all', 'admin', 'not-admin', 'speakers', 'permission', 'collector', 'custom-list', 'with-email', 'without-email',
  'approved', 'denied', 'nfc-synced', 'nfc-not-synced', 'printed', 'not-printed', 'accepted-rsvp', 'declined-rsvp',
  'waiting-rsvp', 'downloaded', 'not-downloaded', 'incomplete-profile', 'present', 'not-present', 'virtual',
  'not-virtual', 'now-virtual', 'public', 'private', 'favorited',
] as const; // prettier-ignore
type Selection = (typeof SELECTIONS)[number];

const FILTERS = {
  name: qOpt(text(200), 'name contains (any case)'),
  username: qOpt(text(320), 'username contains (any case)'),
  email: qOpt(text(320), 'e-mail contains (any case)'),
  role: qOpt(text(200), 'role contains (any case)'),
  company: qOpt(text(200), 'company contains (any case)'),
  assistantEmail: qOpt(text(320), 'assistant e-mail contains (any case)'),
  updatedBeforeDate: qOpt(timestamp, 'updated before this time (updatedDate < value)'),
  updatedAfterDate: qOpt(timestamp, 'updated at or after this time (updatedDate >= value)'),
  ticket: qOpt(id, 'ticket in use (ticketID)'),
} satisfies Record<string, Param>;
type FilterName = keyof typeof FILTERS;
const FILTER_NAMES = Object.keys(FILTERS) as FilterName[];

/** `feedback_<feedbackID>`: the answer to that custom field equals the value (any case). */
const FEEDBACK = /^feedback_[1-9]\d{0,9}$/;
const feedbackValue: Param = qOpt(text(1000), 'the answer to custom field <feedbackID> equals this (any case)');

const ORDERS = {
  level: 'eventPerson.level', memberID: 'eventPerson.personID', name: 'eventPerson.name', firstName: 'eventPerson.firstName',
  lastName: 'eventPerson.lastName', username: 'eventPerson.username', role: 'eventPerson.role', company: 'eventPerson.company',
  email: 'eventPerson.email', assistantEmail: 'eventPerson.assistantEmail', private: 'eventPerson.private',
  rsvp: 'eventPerson.rsvp', present: 'eventPerson.present', origin: 'eventPerson.origin', ticket: 'eventPerson.ticketID',
  language: 'eventPerson.language', enrollmentDate: 'eventPerson.enrollmentDate',
  updatedDate: 'eventPerson.updatedDate', printed: 'eventPerson.prints', device: 'eventPerson.personID',
  downloaded: 'downloaded', rand: 'rand',
} as const; // prettier-ignore
type Order = keyof typeof ORDERS;
/** Text columns sort without regard to case, the same on both stores. */
const TEXT_ORDERS = new Set<Order>([
  'name', 'firstName', 'lastName', 'username', 'role', 'company', 'email', 'assistantEmail', 'origin', 'language',
]); // prettier-ignore

/** What an event-scope token cannot see of other attendees, so it cannot filter or order by it either. */
const HIDDEN_FILTERS = new Set<string>(['username', 'assistantEmail']);
const HIDDEN_ORDERS = new Set<Order>(['username', 'email', 'assistantEmail']);

/** Data Collectors' limit (spec §8: a cache pull of simplified attendee data uses 500000). */
const COLLECTOR_LIMIT_MAX = 500_000;

const contains = (column: string, v: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${v.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`} escape '\\'`;

/**
 * Spec §4.4. Lists the attendees of the event for event admins, staff and Data Collectors (the
 * latter may page up to 500000). Event-scope tokens get limited records of the others
 * (docs/api/attendees.md). Podium extensions: listID (custom-list), personID (favorited).
 */
export default defineOperation({
  name: 'event.person.find',
  summary: 'Lists the attendees of an event by selection, filters and order.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    selection: q(
      selection(SELECTIONS, true),
      `${SELECTIONS.join(', ')}, tags:<id>,<id>; combine with |. denied: registered and not approved (approved 0, spec §3)`,
    ),
    ...FILTERS,
    query: qOpt(text(1000), 'a filter value, with queryKey naming the filter'),
    queryKey: qOpt(
      z
        .string()
        .refine(
          (k) => (FILTER_NAMES as string[]).includes(k) || FEEDBACK.test(k),
          `must be one of ${FILTER_NAMES.join(', ')}, feedback_<feedbackID>`,
        ),
      'the filter the query applies to',
    ),
    order: qOpt(
      z.enum(Object.keys(ORDERS) as [Order], `must be one of ${Object.keys(ORDERS).join(', ')}`),
      'sort column (default name)',
    ),
    orderOrientation: qOpt(orientation, 'ASC or DESC'),
    fullProfile: qOpt(bit, '1 adds the custom-field answers (feedbacks) and the time zone'),
    listID: qOpt(id, 'Podium extension: the list of the custom-list selection'),
    personID: qOpt(id, 'Podium extension: whose favorites the favorited selection lists (default: the caller)'),
    limit: qOpt(
      z.coerce
        .number()
        .int('must be an integer')
        .min(1, 'must be at least 1')
        .max(COLLECTOR_LIMIT_MAX, `must be at most ${COLLECTOR_LIMIT_MAX}`),
      `items per page (default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX}; Data Collectors up to ${COLLECTOR_LIMIT_MAX})`,
    ),
    offset: qOpt(
      z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(MAX_ID, `must be at most ${MAX_ID}`),
      'items to skip',
    ),
    paginated: qOpt(z.enum(['0', '1'], 'must be 0 or 1'), '1 adds "total" to the answer'),
  },
  patternParams: { pattern: FEEDBACK, example: 'feedback_<feedbackID>', param: feedbackValue },
  auth: { kind: 'event', levels: READERS },
  writes: false,
  async handler(ctx, p) {
    const eventID = p.eventID;
    const level = ctx.access!.level;
    const viewer = viewerOf(ctx);
    const limit = p.limit ?? PAGE_LIMIT_DEFAULT;
    if (limit > PAGE_LIMIT_MAX && (level & LEVEL.COLLECTOR) === 0)
      throw badRequest(`limit must be at most ${PAGE_LIMIT_MAX} (up to ${COLLECTOR_LIMIT_MAX} for Data Collectors)`);

    // Filters: the named parameters, feedback_<id> parameters, and the query + queryKey form.
    const filters: [string, unknown][] = FILTER_NAMES.filter((n) => p[n] !== undefined).map((n) => [n, p[n]]);
    for (const [name, v] of Object.entries(ctx.extra)) filters.push([name, v]);
    if ((p.query === undefined) !== (p.queryKey === undefined)) throw badRequest('query and queryKey go together');
    if (p.query !== undefined && p.queryKey !== undefined) {
      const schema = FEEDBACK.test(p.queryKey) ? feedbackValue.schema : FILTERS[p.queryKey as FilterName].schema;
      const parsed = schema.safeParse(p.query);
      if (!parsed.success)
        throw badRequest(`query ${parsed.error.issues[0]?.message ?? 'is invalid'} (queryKey ${p.queryKey})`);
      filters.push([p.queryKey, parsed.data]);
    }
    if (viewer.limited) {
      const hidden = filters.find(([n]) => HIDDEN_FILTERS.has(n) || FEEDBACK.test(n));
      if (hidden) throw new ApiError(403, `an event-scope token cannot filter by ${hidden[0]}`);
      if (p.order !== undefined && HIDDEN_ORDERS.has(p.order))
        throw new ApiError(403, `an event-scope token cannot order by ${p.order}`);
    }
    const feedbackIDs = [
      ...new Set(filters.filter(([n]) => FEEDBACK.test(n)).map(([n]) => Number(n.slice('feedback_'.length)))),
    ];
    // An id past the integer column names no custom field (and PostgreSQL would refuse to compare it).
    if (feedbackIDs.some((n) => n > MAX_ID)) throw notFound('feedback');
    if (feedbackIDs.length > 0) {
      const known = await ctx.db
        .selectFrom('feedback')
        .select('feedbackID')
        .where('eventID', '=', eventID)
        .where('feedbackID', 'in', feedbackIDs)
        .execute();
      if (known.length !== feedbackIDs.length) throw notFound('feedback');
    }

    let query: AttendeeBase = attendeeBase(ctx.db, eventID);
    const sel = p.selection.values as Set<Selection>;
    if (sel.has('custom-list')) {
      if (p.listID === undefined) throw badRequest('listID cannot be empty for the custom-list selection');
      const list = await ctx.db
        .selectFrom('list')
        .select('listID')
        .where('listID', '=', p.listID)
        .where('eventID', '=', eventID)
        .executeTakeFirst();
      if (!list) throw notFound('list');
    }
    if (sel.has('favorited') && p.personID !== undefined) {
      const member = await ctx.db
        .selectFrom('eventPerson')
        .select('personID')
        .where('eventID', '=', eventID)
        .where('personID', '=', p.personID)
        .executeTakeFirst();
      if (!member) throw notFound('person');
    }
    const virtual = sel.has('virtual') || sel.has('not-virtual') || sel.has('now-virtual');
    const event = virtual
      ? await ctx.db
          .selectFrom('event')
          .select(['presential', 'dateBegin', 'dateEnd'])
          .where('eventID', '=', eventID)
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
            e.selectFrom('listPerson').select('listPerson.personID').where('listPerson.listID', '=', p.listID!));
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
          if (event!.presential !== 0 || !(event!.dateBegin <= ctx.now && ctx.now <= event!.dateEnd)) query = query.where(none);
          break;
        case 'public': query = query.where('eventPerson.private', '=', 0); break;
        case 'private': query = query.where('eventPerson.private', '=', 1); break;
        // Podium stores no favorites yet: nobody is anybody's favorite.
        case 'favorited': query = query.where(none); break;
      } // prettier-ignore
    }
    if (p.selection.tags.length > 0)
      query = query.where('eventPerson.personID', 'in', (e) =>
        e
          .selectFrom('eventPersonTag')
          .select('eventPersonTag.personID')
          .where('eventPersonTag.eventID', '=', eventID)
          .where('eventPersonTag.tagID', 'in', p.selection.tags),
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

    const order: Order = p.order ?? 'name';
    const dir = p.orderOrientation === 'DESC' ? sql.raw('desc') : sql.raw('asc');
    const column = ORDERS[order];
    const key =
      order === 'rand'
        ? sql`random()`
        : order === 'downloaded'
          ? downloadedExpr
          : TEXT_ORDERS.has(order)
            ? sql`lower(${sql.ref(column)})`
            : sql.ref(column);
    const offset = p.offset ?? 0;
    const rows = await selectAttendee(query)
      .orderBy(sql`${key} ${dir}`)
      .orderBy(sql`${sql.ref('eventPerson.personID')} ${dir}`)
      .limit(limit)
      .offset(offset)
      .execute();
    const records = await attendeeRecords(
      ctx.db,
      eventID,
      rows,
      viewer,
      await recordOptions(ctx.db, eventID, p.fullProfile === 1),
    );
    if (p.paginated !== '1') return records;
    const { n } = await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows: records, total: Number(n) };
  },
});
