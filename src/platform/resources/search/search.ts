import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Page } from '../../db/page.ts';
import { SEARCH_TYPES, authorToken, eventToken, type SearchType } from './documents.ts';
import { RANK_CAP, countMatches, matchIndex, matchQuery, type Scope } from './repository.ts';
import { rankOf, snippetOf } from './rank.ts';
import { termsOf } from './text.ts';

// event.search's read (docs/api/search.md): who may see what becomes scope words of the one index query,
// so the store filters, ranks and pages in its index; the page's comments then get their author's name
// and session (one query for the page).

/** Who searches. */
export interface Searcher {
  personID: number;
  /** The event's admins: its attendees, and comments waiting for moderation. */
  admin: boolean;
}

export interface Hit {
  type: SearchType;
  id: number;
  title: string;
  snippet: string;
  activityID: number | null;
  rank: number;
}

const EVERYONE: ReadonlySet<SearchType> = new Set(['activity', 'speaker', 'sponsor', 'section']);

/**
 * The scope words of a search: the event, and the types (and comments) the searcher may see; undefined
 * when they may see none of the types asked for. An admin asking for every type needs no type words.
 */
export function scopeOf(eventID: number, types: ReadonlySet<SearchType>, who: Searcher): Scope | undefined {
  if (who.admin && SEARCH_TYPES.every((t) => types.has(t))) return { all: [eventToken(eventID)], any: [] };
  const any: string[] = [];
  for (const t of types) {
    if (EVERYONE.has(t) || who.admin) any.push(t);
    // Others see approved comments and their own waiting ones (`waiting p9`: only comments have these words).
    else if (t === 'comment') any.push('approved', authorToken(who.personID));
  }
  return any.length > 0 ? { all: [eventToken(eventID)], any } : undefined;
}

export async function searchEvent(
  db: Kysely<DB>,
  eventID: number,
  query: string,
  types: ReadonlySet<SearchType>,
  who: Searcher,
  page: Page,
  /** How many matches are ranked at most (RANK_CAP; config SEARCH_RANK_CAP). */
  cap = RANK_CAP,
): Promise<{ hits: Hit[]; total: number }> {
  const terms = termsOf(query);
  const scope = scopeOf(eventID, types, who);
  if (terms.words.length === 0 || !scope) return { hits: [], total: 0 };
  const found = await matchIndex(db, scope, terms, page.limit, page.offset, cap);
  const total = page.paginated ? await countMatches(db, scope, terms) : 0;
  // A hit's rank is relative to the best hit of the whole answer, on every page.
  const top =
    page.offset === 0 || found.length === 0
      ? (found[0]?.score ?? 0)
      : Number((await matchQuery(db, scope, terms, 1, 0, cap).execute(db)).rows[0]?.score ?? 0);
  const commentIDs = found.filter((h) => h.type === 'comment').map((h) => h.objectID);
  const comments = new Map(
    commentIDs.length === 0
      ? []
      : (
          await db
            .selectFrom('comment')
            .innerJoin('person', 'person.personID', 'comment.personID')
            .leftJoin('eventPerson', (j) =>
              j
                .onRef('eventPerson.eventID', '=', 'comment.eventID')
                .onRef('eventPerson.personID', '=', 'comment.personID'),
            )
            .select([
              'comment.commentID',
              'comment.activityID',
              'person.name as personName',
              'eventPerson.name as eventName',
            ])
            .where('comment.commentID', 'in', commentIDs)
            .execute()
        ).map((c) => [c.commentID, c]),
  );
  const hits = found.map((h) => {
    const comment = h.type === 'comment' ? comments.get(h.objectID) : undefined;
    return {
      type: h.type,
      id: h.objectID,
      title: comment ? comment.eventName || comment.personName : h.title,
      snippet: snippetOf(h.body, terms.words),
      activityID: comment ? comment.activityID : null,
      rank: rankOf(h.score, top),
    };
  });
  return { hits, total };
}
