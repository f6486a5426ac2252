import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt, type Param } from '../../../../kernel/table.ts';
import { bit, id, ids, orientation, selection, text, timestamp, timezone } from '../../../../schemas.ts';
import { ApiError, badRequest, notFound } from '../../../../errors.ts';
import { companyLevelOf } from '../../../../auth/access.ts';
import {
  companyIDOf,
  EVENT_FILTER_NAMES,
  EVENT_ORDERS,
  EVENT_SELECTIONS,
  findEvents,
  PERSONAL_SELECTIONS,
  type EventFilterName as FilterName,
} from '../../../event/find.ts';

const SELECTIONS = EVENT_SELECTIONS;

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
} satisfies Record<FilterName, Param>;

const ORDERS = EVENT_ORDERS;

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
    const companyID = await companyIDOf(ctx.db, p);
    if (companyID === undefined) throw notFound('company');
    const caller = ctx.caller;
    const sel = p.selection.values;
    if (!caller && [...sel].some((s) => PERSONAL_SELECTIONS.has(s)))
      throw new ApiError(401, 'tokenID cannot be empty for this selection');
    const reader = {
      personID: caller?.personID ?? 0,
      signedIn: caller !== undefined,
      member: caller ? (await companyLevelOf(ctx.db, caller, companyID)) > 0 : false,
      eventScope: caller?.scope === 'event' ? caller.targetID : undefined,
    };
    const filters: [FilterName, unknown][] = EVENT_FILTER_NAMES.filter((n) => p[n] !== undefined).map((n) => [n, p[n]]);
    if ((p.query === undefined) !== (p.queryKey === undefined)) throw badRequest('query and queryKey go together');
    if (p.query !== undefined && p.queryKey !== undefined) {
      const parsed = FILTERS[p.queryKey].schema.safeParse(p.query);
      if (!parsed.success)
        throw badRequest(`query ${parsed.error.issues[0]?.message ?? 'is invalid'} (queryKey ${p.queryKey})`);
      filters.push([p.queryKey, parsed.data]);
    }
    const search = {
      companyID,
      selection: sel,
      tags: p.selection.tags,
      filters,
      order: p.order ?? 'dateBegin',
      desc: p.orderOrientation === 'DESC',
      now: ctx.now,
    } as const;
    return findEvents(ctx.db, reader, search, pageOf(p));
  },
});
