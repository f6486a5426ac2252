import { z } from 'zod';
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../../db/schema.ts';
import { defineOperation, pageOf, pageParams, q, qOpt, LEVEL, type Param } from '../../../table.ts';
import { bit, id, ids, orientation, selection, text, timestamp, timezone } from '../../../schemas.ts';
import { ApiError, badRequest, notFound } from '../../../errors.ts';
import { companyLevelOf } from '../../../auth/access.ts';
import { listItem } from '../../../domain/event/service.ts';
import { SELECTED_APPROVAL } from '../../../domain/approval.ts';

const SELECTIONS = [
  'my-events-created', 'my-events', 'next-events', 'past-events', 'current-events', 'single-day-events',
  'multi-day-events', 'online-events', 'presential-events', 'archived', 'not-archived', 'all', 'best-fit',
  'approved', 'enrolled', 'denied', 'paid', 'present', 'working',
] as const; // prettier-ignore
const PERSONAL = new Set([
  'my-events-created',
  'my-events',
  'approved',
  'enrolled',
  'denied',
  'paid',
  'present',
  'working',
]);

const FILTERS = {
  name: qOpt(text(200), 'name contains'),
  city: qOpt(text(200), 'city equals (any case)'),
  dateBegin: qOpt(timestamp, 'begins at or after'),
  dateEnd: qOpt(timestamp, 'ends at or before'),
  presential: qOpt(bit, '0 online, 1 presential'),
  public: qOpt(bit, '0 private, 1 public'),
  visible: qOpt(bit, 'visibility'),
  archived: qOpt(bit, 'archived'),
  templateID: qOpt(id, 'created from this template'),
  placeID: qOpt(id, 'place'),
  timezone: qOpt(timezone, 'IANA time zone'),
  tags: qOpt(ids, 'has any of these tag ids'),
} satisfies Record<string, Param>;
type FilterName = keyof typeof FILTERS;

const ORDERS = [
  'eventID',
  'name',
  'nickname',
  'dateBegin',
  'dateEnd',
  'city',
  'entries',
  'approved',
  'placeName',
] as const;

type Q = SelectQueryBuilder<DB, 'event' | 'eventPerson', object>;
const DAY = 86400;

function applyFilter(query: Q, name: FilterName, v: unknown): Q {
  switch (name) {
    case 'name': {
      // "name contains" the text as typed: % and _ must not act as LIKE wildcards (name=% listed
      // every event, name=a_ matched "aç"), so they are escaped.
      const text = String(v)
        .toLowerCase()
        .replace(/[\\%_]/g, '\\$&');
      return query.where(sql<boolean>`lower(${sql.ref('event.name')}) like ${`%${text}%`} escape '\\'`);
    }
    case 'city':
      return query.where(sql<boolean>`lower(${sql.ref('event.city')}) = ${String(v).toLowerCase()}`);
    case 'dateBegin':
      return query.where('event.dateBegin', '>=', v as number);
    case 'dateEnd':
      return query.where('event.dateEnd', '<=', v as number);
    case 'tags':
      return query.where('event.eventID', 'in', (e) =>
        e
          .selectFrom('eventTag')
          .select('eventTag.eventID')
          .where('eventTag.tagID', 'in', v as number[]),
      );
    default:
      return query.where(`event.${name}`, '=', v as never);
  }
}

/**
 * Spec §4.2. Without tokenID (Podium extension, for public directories) only visible, public,
 * unarchived events are listed; a company person sees every event of the company; anyone else sees
 * the public ones plus those they are registered in. `approved` is the caller's registration state.
 */
export default defineOperation({
  name: 'company.event.find',
  summary: 'Lists the events of a company by selection, filters and order.',
  methods: ['GET'],
  params: {
    companyID: qOpt(id, 'the company'),
    namespace: qOpt(text(64), 'Podium extension: the company by its namespace instead of companyID'),
    selection: q(
      selection(SELECTIONS, true),
      `${SELECTIONS.join(', ')}, tags:<id>,<id>; combine with |. denied: registered and not approved (approved 0, spec §3)`,
    ),
    ...FILTERS,
    query: qOpt(text(200), 'a filter value, with queryKey naming the filter'),
    queryKey: qOpt(
      z.enum(Object.keys(FILTERS) as [FilterName], `must be one of ${Object.keys(FILTERS).join(', ')}`),
      'filter the query applies to',
    ),
    order: qOpt(z.enum(ORDERS, `must be one of ${ORDERS.join(', ')}`), 'sort column'),
    orderOrientation: qOpt(orientation, 'ASC or DESC'),
    ...pageParams,
  },
  variants: [['companyID'], ['namespace']],
  auth: { kind: 'public' },
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const company = await ctx.db
      .selectFrom('company')
      .select('companyID')
      .$if(p.companyID !== undefined, (w) => w.where('companyID', '=', p.companyID!))
      .$if(p.namespace !== undefined, (w) => w.where('namespace', '=', p.namespace!.toLowerCase()))
      .executeTakeFirst();
    if (!company) throw notFound('company');
    const caller = ctx.caller;
    const sel = p.selection.values;
    if (!caller && [...sel].some((s) => PERSONAL.has(s)))
      throw new ApiError(401, 'tokenID cannot be empty for this selection');
    const isMember = caller ? (await companyLevelOf(ctx.db, caller, company.companyID)) > 0 : false;
    const me = caller?.personID ?? 0;

    let query: Q = ctx.db
      .selectFrom('event')
      .leftJoin('eventPerson', (j) =>
        j.onRef('eventPerson.eventID', '=', 'event.eventID').on('eventPerson.personID', '=', me),
      )
      .where('event.companyID', '=', company.companyID);
    if (caller?.scope === 'event') query = query.where('event.eventID', '=', caller.targetID);
    if (!isMember) {
      const open = (e: ExpressionBuilder<DB, 'event'>) =>
        e.and([
          e('event.visible', '=', 1),
          e('event.public', '=', 1),
          e('event.isTemplate', '=', 0),
          e('event.archived', '=', 0),
        ]);
      query = caller
        ? query.where((e) => e.or([open(e), e('eventPerson.personID', 'is not', null)]))
        : query.where(open);
    }

    const now = ctx.now;
    for (const s of sel) {
      switch (s) {
        case 'my-events-created': query = query.where('event.creatorID', '=', me); break;
        case 'my-events': case 'enrolled': query = query.where('eventPerson.approved', '>=', 0); break;
        case 'next-events': query = query.where('event.dateBegin', '>', now); break;
        case 'past-events': query = query.where('event.dateEnd', '<', now); break;
        case 'current-events': query = query.where('event.dateBegin', '<=', now).where('event.dateEnd', '>=', now); break;
        case 'single-day-events': query = query.where(sql<boolean>`${sql.ref('event.dateEnd')} - ${sql.ref('event.dateBegin')} <= ${DAY}`); break;
        case 'multi-day-events': query = query.where(sql<boolean>`${sql.ref('event.dateEnd')} - ${sql.ref('event.dateBegin')} > ${DAY}`); break;
        case 'online-events': query = query.where('event.presential', '=', 0); break;
        case 'presential-events': query = query.where('event.presential', '=', 1); break;
        case 'archived': query = query.where('event.archived', '=', 1); break;
        case 'not-archived': query = query.where('event.archived', '=', 0); break;
        case 'best-fit': query = query.where('event.archived', '=', 0).where('event.visible', '=', 1).where('event.dateEnd', '>=', now); break;
        // Spec §3 (domain/approval.ts): denied = the caller is registered and not approved (0).
        case 'approved': case 'denied': query = query.where('eventPerson.approved', '=', SELECTED_APPROVAL[s]); break;
        case 'paid': query = query.where('eventPerson.paid', '=', 1); break;
        case 'present': query = query.where('eventPerson.present', '=', 1); break;
        case 'working': query = query.where(sql<boolean>`(${sql.ref('eventPerson.level')} & ${~LEVEL.USER & 0xffff}) <> 0`); break;
        case 'all': break;
      } // prettier-ignore
    }
    if (p.selection.tags.length > 0) query = applyFilter(query, 'tags', p.selection.tags);
    for (const name of Object.keys(FILTERS) as FilterName[]) {
      if (p[name] !== undefined) query = applyFilter(query, name, p[name]);
    }
    if ((p.query === undefined) !== (p.queryKey === undefined)) throw badRequest('query and queryKey go together');
    if (p.query !== undefined && p.queryKey !== undefined) {
      const parsed = FILTERS[p.queryKey].schema.safeParse(p.query);
      if (!parsed.success)
        throw badRequest(`query ${parsed.error.issues[0]?.message ?? 'is invalid'} (queryKey ${p.queryKey})`);
      query = applyFilter(query, p.queryKey, parsed.data);
    }

    const page = pageOf(p);
    const dir = p.orderOrientation === 'DESC' ? 'desc' : 'asc';
    const order = p.order ?? 'dateBegin';
    const counted = (approvedOnly: boolean) =>
      sql<number>`(select count(*) from ${sql.table('eventPerson')} as ep where ep.${sql.ref('eventID')} = ${sql.ref('event.eventID')}${approvedOnly ? sql` and ep.${sql.ref('approved')} = 1` : sql``})`;
    const rows = await query
      .selectAll('event')
      .select(sql<number>`coalesce(${sql.ref('eventPerson.approved')}, -1)`.as('approved'))
      .orderBy(
        order === 'entries' ? counted(false) : order === 'approved' ? counted(true) : sql.ref(`event.${order}`),
        dir,
      )
      .orderBy('event.eventID', dir)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const items = rows.map((r) => ({
      ...listItem(r),
      companyID: r.companyID,
      timezone: r.timezone,
      language: r.language,
    }));
    if (!page.paginated) return items;
    const { n } = await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows: items, total: Number(n) };
  },
});
