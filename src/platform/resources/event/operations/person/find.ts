import { z } from 'zod';
import {
  defineOperation,
  q,
  qOpt,
  LEVEL,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  type Param,
} from '../../../../kernel/table.ts';
import { bit, id, orientation, selection, text, timestamp, wholeNumber } from '../../../../schemas.ts';
import { ApiError, badRequest } from '../../../../errors.ts';
import { READERS } from '../../../attendee/profile.ts';
import {
  ATTENDEE_ORDERS,
  ATTENDEE_SELECTIONS,
  FEEDBACK,
  findAttendees,
  type AttendeeOrder,
} from '../../../attendee/find.ts';
import { viewerOf } from '../../../../kernel/call.ts';

const SELECTIONS = ATTENDEE_SELECTIONS;

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

const feedbackValue: Param = qOpt(text(1000), 'the answer to custom field <feedbackID> equals this (any case)');

const ORDERS = ATTENDEE_ORDERS;
type Order = AttendeeOrder;

/** What an event-scope token cannot see of other attendees, so it cannot filter or order by it either. */
const HIDDEN_FILTERS = new Set<string>(['username', 'assistantEmail']);
const HIDDEN_ORDERS = new Set<Order>(['username', 'email', 'assistantEmail']);

/** Data Collectors' limit (spec §8: a cache pull of simplified attendee data uses 500000). */
const COLLECTOR_LIMIT_MAX = 500_000;

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
        .number('must be a whole number')
        .int('must be an integer')
        .min(1, 'must be at least 1')
        .max(COLLECTOR_LIMIT_MAX, `must be at most ${COLLECTOR_LIMIT_MAX}`),
      `items per page (default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX}; Data Collectors up to ${COLLECTOR_LIMIT_MAX})`,
    ),
    offset: qOpt(wholeNumber, 'items to skip'),
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
    if (limit > PAGE_LIMIT_MAX && (level & LEVEL.COLLECTOR) === 0 && !ctx.report)
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
    return findAttendees(
      ctx.db,
      {
        eventID,
        selection: p.selection.values,
        tags: p.selection.tags,
        filters,
        listID: p.listID,
        personID: p.personID,
        order: p.order ?? 'name',
        desc: p.orderOrientation === 'DESC',
        limit,
        offset: p.offset ?? 0,
        paginated: p.paginated === '1',
        fullProfile: p.fullProfile === 1,
        now: ctx.now,
        keyset: ctx.report,
      },
      viewer,
    );
  },
});
