import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Page, Paged } from '../../db/page.ts';
import { LEVEL } from '../../auth/levels.ts';
import { SELECTED_APPROVAL } from '../approval.ts';
import { listItem } from './service.ts';
import { eventListItemWire } from '../../../shared/wire/event.ts';
import { recordOf, type RecordOf } from '../records.ts';

// The search of company.event.find (spec §4.2): the events of one company a reader may list, by
// selection, filters and order, one page at a time.

export const EVENT_SELECTIONS = [
  'my-events-created', 'my-events', 'next-events', 'past-events', 'current-events', 'single-day-events',
  'multi-day-events', 'online-events', 'presential-events', 'archived', 'not-archived', 'all', 'best-fit',
  'approved', 'enrolled', 'denied', 'paid', 'present', 'working',
] as const; // prettier-ignore
export type EventSelection = (typeof EVENT_SELECTIONS)[number];

/** Selections about the reader's own registrations: they need a token. */
export const PERSONAL_SELECTIONS: ReadonlySet<EventSelection> = new Set([
  'my-events-created', 'my-events', 'approved', 'enrolled', 'denied', 'paid', 'present', 'working',
]); // prettier-ignore

export const EVENT_FILTER_NAMES = [
  'name', 'city', 'dateBegin', 'dateEnd', 'presential', 'public', 'visible', 'archived', 'templateID', 'placeID',
  'timezone', 'tags',
] as const; // prettier-ignore
export type EventFilterName = (typeof EVENT_FILTER_NAMES)[number];
type FilterName = EventFilterName;

export const EVENT_ORDERS = [
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

/** Who reads: their person (0: anonymous), whether they belong to the company, an event-scope token's event. */
export interface EventReader {
  readonly personID: number;
  readonly signedIn: boolean;
  readonly member: boolean;
  readonly eventScope?: number;
}

/** A company.event.find item: exactly the keys of its wire row, or it does not compile. */
const listRecord = recordOf(eventListItemWire);

export interface EventSearch {
  readonly companyID: number;
  readonly selection: ReadonlySet<EventSelection>;
  readonly tags: readonly number[];
  readonly filters: readonly (readonly [FilterName, unknown])[];
  readonly order: (typeof EVENT_ORDERS)[number];
  readonly desc: boolean;
  readonly now: number;
}

/**
 * Without a token only visible, public, unarchived events are listed; a company person sees every
 * event of the company; anyone else sees the public ones plus those they are registered in.
 * `approved` is the reader's registration state (-1: none).
 */
export async function findEvents(
  db: Kysely<DB>,
  reader: EventReader,
  search: EventSearch,
  page: Page,
): Promise<Paged<RecordOf<typeof eventListItemWire>>> {
  let query: Q = db
    .selectFrom('event')
    .leftJoin('eventPerson', (j) =>
      j.onRef('eventPerson.eventID', '=', 'event.eventID').on('eventPerson.personID', '=', reader.personID),
    )
    .where('event.companyID', '=', search.companyID);
  if (reader.eventScope !== undefined) query = query.where('event.eventID', '=', reader.eventScope);
  if (!reader.member) {
    const open = (e: ExpressionBuilder<DB, 'event'>) =>
      e.and([
        e('event.visible', '=', 1),
        e('event.public', '=', 1),
        e('event.isTemplate', '=', 0),
        e('event.archived', '=', 0),
      ]);
    query = reader.signedIn
      ? query.where((e) => e.or([open(e), e('eventPerson.personID', 'is not', null)]))
      : query.where(open);
  }

  const now = search.now;
  for (const s of search.selection) {
    switch (s) {
      case 'my-events-created': query = query.where('event.creatorID', '=', reader.personID); break;
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
  if (search.tags.length > 0) query = applyFilter(query, 'tags', search.tags);
  for (const [name, v] of search.filters) query = applyFilter(query, name, v);
  const dir = search.desc ? 'desc' : 'asc';
  const order = search.order;
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
  const items = rows.map((r) =>
    listRecord({ ...listItem(r), companyID: r.companyID, timezone: r.timezone, language: r.language }),
  );
  if (!page.paginated) return items;
  const { n } = await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows: items, total: Number(n) };
}

/** The company a company.event.find names, by id or namespace (undefined: none). */
export async function companyIDOf(db: Kysely<DB>, by: { companyID?: number; namespace?: string }) {
  const row = await db
    .selectFrom('company')
    .select('companyID')
    .$if(by.companyID !== undefined, (w) => w.where('companyID', '=', by.companyID!))
    .$if(by.namespace !== undefined, (w) => w.where('namespace', '=', by.namespace!.toLowerCase()))
    .executeTakeFirst();
  return row?.companyID;
}
