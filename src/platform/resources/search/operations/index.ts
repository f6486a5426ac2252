import { z } from 'zod';
import {
  ANY_LEVEL,
  b,
  defineOperation,
  pageOf,
  pageParams,
  q,
  qOpt,
  type AnyOperation,
} from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { isEventAdmin } from '../../../kernel/call.ts';
import { searchHitWire } from '../../../../shared/wire/search.ts';
import { SEARCH_TYPES, type SearchType } from '../documents.ts';
import { searchEvent } from '../search.ts';

const QUERY_MIN = 2;
const QUERY_MAX = 100;

const query = z
  .string()
  .max(QUERY_MAX, `must be at most ${QUERY_MAX} characters`)
  .transform((v) => v.trim().replace(/\s+/g, ' '))
  .refine((v) => v.length >= QUERY_MIN, `must be at least ${QUERY_MIN} characters`);

const types = z
  .string()
  .max(200, 'must be at most 200 characters')
  .transform((v) => v.split(',').map((t) => t.trim()))
  .refine(
    (list) => list.every((t) => (SEARCH_TYPES as readonly string[]).includes(t)),
    `must be types from ${SEARCH_TYPES.join(', ')} separated by commas`,
  )
  .transform((list) => new Set(list as SearchType[]));

/**
 * Spec §4.2: one query across the objects of an event that the caller may see (docs/api/search.md):
 * sessions, speakers, sponsors, site sections, approved comments (and the caller's own), and for the
 * event's admins its attendees and every comment. Answered from the store's text index, ranked, paged.
 */
const eventSearch = defineOperation({
  name: 'event.search',
  summary:
    'Searches the objects of an event the caller may see (sessions, speakers, sponsors, site sections, comments; attendees for admins), ranked, each hit typed.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    query: b(
      query,
      `the words to find (${QUERY_MIN} to ${QUERY_MAX} characters; any case and accents; the last word may be the start of one)`,
    ),
    types: qOpt(types, `Podium extension: only these types (${SEARCH_TYPES.join(', ')}; comma list)`),
    ...pageParams,
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  answer: searchHitWire,
  async handler(ctx, p) {
    const page = pageOf(p);
    const found = await searchEvent(ctx.db, p.eventID, p.query, p.types ?? new Set(SEARCH_TYPES), {
      personID: ctx.caller!.personID,
      admin: isEventAdmin(ctx),
    }, page, ctx.config.SEARCH_RANK_CAP); // prettier-ignore
    const rows = found.hits.map((h) => ({
      type: h.type,
      id: String(h.id),
      eventID: String(p.eventID),
      title: h.title,
      snippet: h.snippet,
      activityID: h.activityID === null ? '' : String(h.activityID),
      rank: String(h.rank),
    }));
    return page.paginated ? { rows, total: found.total } : rows;
  },
});

export const searchOperations: readonly AnyOperation[] = [eventSearch];
