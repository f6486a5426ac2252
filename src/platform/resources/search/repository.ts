import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { isPostgres } from '../../db/connect.ts';
import { SEARCH_TYPES, activityToken, keyToken, type SearchDoc, type SearchType } from './documents.ts';
import { wordsOf, type Terms } from './text.ts';

// The search index's reads and writes (migration 0025, docs/api/search.md): the one place whose SQL
// differs by store. SQLite: the FTS5 table `searchIndex` (title, body, more, scope; eventID, type,
// objectID unindexed), ranked by bm25. PostgreSQL: the table `searchIndex` whose `doc` tsvector (title A,
// body B, more C, scope D, folded text, 'simple' configuration) has a GIN index, ranked by ts_rank.
// Both are asked one boolean query: the scope words (event, types, visibility) AND the person's words,
// the last as a prefix; the event is only its scope word (a filter on a column would read every match's
// row, and on PostgreSQL the planner could read the event's rows by the key instead of the GIN index).

/** Weights of title, body, more (scope never counts): FTS5's bm25 and PostgreSQL's ts_rank ({D,C,B,A}). */
const BM25 = sql.raw('10.0, 3.0, 1.0, 0.0');
const TS_WEIGHTS = '{0, 0.1, 0.3, 1}';
/**
 * How many matching documents are ranked at most (config SEARCH_RANK_CAP; docs/api/search.md "Common
 * words"): the first this many in the index's own order are scored and sorted, so a word found in most
 * of a big event costs a bounded ranking, while a rarer word (fewer matches) is ranked whole, as before.
 * The answer's pages end there; `total` still counts every match.
 */
export const RANK_CAP = 3000;
/** Keys per statement when replacing documents (well under either store's parameter limit). */
export const CHUNK = 200;

/** What the platform narrows a search to: every word of `all` and at least one of `any` (none: no more). */
export interface Scope {
  readonly all: readonly string[];
  readonly any: readonly string[];
}

const quoted = (w: string) => `"${w}"`; // words are letters and digits only (text.ts): nothing to escape

/** FTS5's MATCH text: the scope on the scope column, the words on the others, the last a prefix. */
export function ftsQuery(scope: Scope, terms: Terms): string {
  const last = terms.words.length - 1;
  const words = terms.words.map((w, i) => (i === last ? `${quoted(w)} *` : quoted(w)));
  const any = scope.any.length > 0 ? ` AND (${scope.any.map(quoted).join(' OR ')})` : '';
  return `scope : (${scope.all.map(quoted).join(' AND ')}${any}) AND {title body more} : (${words.join(' AND ')})`;
}

/** PostgreSQL's tsquery text: the same, scope words with weight D, the person's with A, B or C. */
export function tsQuery(scope: Scope, terms: Terms): { full: string; user: string } {
  const last = terms.words.length - 1;
  const user = terms.words.map((w, i) => `${w}:${i === last ? '*' : ''}ABC`).join(' & ');
  const all = scope.all.map((w) => `${w}:D`).join(' & ');
  const any = scope.any.length > 0 ? ` & (${scope.any.map((w) => `${w}:D`).join(' | ')})` : '';
  return { full: `${all}${any} & ${user}`, user };
}

const typeOrder = sql.raw(`case "type" ${SEARCH_TYPES.map((t, i) => `when '${t}' then ${i}`).join(' ')} end`);

export interface IndexHit {
  type: SearchType;
  objectID: number;
  title: string;
  body: string;
  score: number;
}

/**
 * The ranking query: one page of the matching documents' keys and scores, best first (then by type,
 * then key), among the first `cap` matches in the index's order (the candidates: a subquery with a
 * LIMIT, which neither store folds into the outer query, so at most `cap` matches are scored). It reads
 * the index only (FTS5: its doclists and each candidate's size for bm25; PostgreSQL: the GIN index, then
 * each candidate's tsvector for ts_rank), never the stored text: a page's text is read after.
 */
export function matchQuery(db: Kysely<DB>, scope: Scope, terms: Terms, limit: number, offset: number, cap = RANK_CAP) {
  if (isPostgres(db)) {
    const q = tsQuery(scope, terms);
    return sql<{ type: SearchType; objectID: number; eventID: number; score: number }>`
      select "type", "objectID", "eventID", "score" from (
        select "type", "objectID", "eventID", ts_rank(${TS_WEIGHTS}::float4[], "doc", to_tsquery('simple', ${q.user})) as "score"
        from "searchIndex" where "doc" @@ to_tsquery('simple', ${q.full}) limit ${cap}
      ) as "candidates"
      order by "score" desc, ${typeOrder}, "objectID" limit ${limit} offset ${offset}`;
  }
  return sql<{ docID: number; score: number }>`
    select "docID", "score" from (
      select rowid as "docID", -bm25("searchIndex", ${BM25}) as "score"
      from "searchIndex" where "searchIndex" match ${ftsQuery(scope, terms)} limit ${cap}
    )
    order by "score" desc, "docID" % 8, "docID" limit ${limit} offset ${offset}`;
}

/** One page of hits, best first, with each hit's title and text. */
export async function matchIndex(
  db: Kysely<DB>,
  scope: Scope,
  terms: Terms,
  limit: number,
  offset: number,
  cap = RANK_CAP,
): Promise<IndexHit[]> {
  if (offset >= cap) return []; // past the ranked candidates: the answer's pages end there
  const keys = (await matchQuery(db, scope, terms, limit, offset, cap).execute(db)).rows as Record<string, unknown>[]; // prettier-ignore
  if (keys.length === 0) return [];
  const texts = isPostgres(db)
    ? await sql<{ type: string; objectID: number; title: string; body: string }>`
        select "type", "objectID", "title", "body" from "searchIndex"
        where ("type", "objectID", "eventID") in (${sql.join(keys.map((k) => sql`(${k.type}, ${k.objectID}, ${k.eventID})`))})`.execute(db) // prettier-ignore
    : await sql<{ docID: number; type: string; objectID: number; title: string; body: string }>`
        select rowid as "docID", "type", "objectID", "title", "body" from "searchIndex"
        where rowid in (${sql.join(keys.map((k) => k.docID))})`.execute(db);
  const keyOf = (r: Record<string, unknown>) => (isPostgres(db) ? `${String(r.type)}:${Number(r.objectID)}` : String(r.docID)); // prettier-ignore
  const text = new Map(texts.rows.map((r) => [keyOf(r), r]));
  return keys.flatMap((k) => {
    const t = text.get(keyOf(k));
    return t ? [{ type: t.type as SearchType, objectID: Number(t.objectID), title: t.title, body: t.body, score: Number(k.score) }] : []; // prettier-ignore
  });
}

/** How many documents match (for paginated=1): the index only, no ranking. */
export async function countMatches(db: Kysely<DB>, scope: Scope, terms: Terms): Promise<number> {
  const { rows } = isPostgres(db)
    ? await sql<{ n: number }>`select count(*) as "n" from "searchIndex" where "doc" @@ to_tsquery('simple', ${tsQuery(scope, terms).full})`.execute(db) // prettier-ignore
    : await sql<{ n: number }>`select count(*) as "n" from "searchIndex" where "searchIndex" match ${ftsQuery(scope, terms)}`.execute(db); // prettier-ignore
  return Number(rows[0]?.n ?? 0);
}

/** Drops the documents of these objects (of one event for attendees) and writes `docs` in their place. */
export async function replaceDocs(
  trx: Kysely<DB>,
  type: SearchType,
  eventID: number | undefined,
  ids: readonly number[],
  docs: readonly SearchDoc[],
): Promise<void> {
  const pg = isPostgres(trx);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    if (pg) {
      let q = trx.deleteFrom('searchIndex').where('type', '=', type).where('objectID', 'in', chunk);
      if (type === 'person') q = q.where('eventID', '=', eventID!);
      await q.execute();
    } else {
      const keys = chunk.map((id) => quoted(keyToken(type, id, eventID ?? 0))).join(' OR ');
      await sql`delete from "searchIndex" where rowid in
        (select rowid from "searchIndex" where "searchIndex" match ${`scope : (${keys})`})`.execute(trx);
    }
  }
  await insertDocs(trx, docs);
}

/** Writes new documents (none of them indexed yet). */
export async function insertDocs(trx: Kysely<DB>, docs: readonly SearchDoc[]): Promise<void> {
  const pg = isPostgres(trx);
  for (let i = 0; i < docs.length; i += CHUNK) {
    const rows = docs.slice(i, i + CHUNK).map((d) =>
      pg
        ? sql`(${d.eventID}, ${d.type}, ${d.objectID}, ${d.title}, ${d.body}, ${d.more}, ${d.scope},
            setweight(to_tsvector('simple', ${wordsOf(d.title)}), 'A') || setweight(to_tsvector('simple', ${wordsOf(d.body)}), 'B')
            || setweight(to_tsvector('simple', ${wordsOf(d.more)}), 'C') || setweight(to_tsvector('simple', ${d.scope}), 'D'))`
        : sql`(${d.docID}, ${d.eventID}, ${d.type}, ${d.objectID}, ${d.title}, ${d.body}, ${d.more}, ${d.scope})`,
    );
    await sql`insert into "searchIndex" (${sql.raw(pg ? '' : 'rowid, ')}"eventID", "type", "objectID", "title", "body", "more", "scope"${sql.raw(pg ? ', "doc"' : '')})
      values ${sql.join(rows)}`.execute(trx);
  }
}

/** Drops the comments of a removed session (the store removed them with it: foreign key cascade). */
export async function dropCommentsOf(trx: Kysely<DB>, activityIDs: readonly number[]): Promise<void> {
  for (const activityID of activityIDs) {
    if (isPostgres(trx))
      await sql`delete from "searchIndex" where "doc" @@ to_tsquery('simple', ${`${activityToken(activityID)}:D & comment:D`})`.execute(trx); // prettier-ignore
    else
      await sql`delete from "searchIndex" where rowid in
        (select rowid from "searchIndex" where "searchIndex" match ${`scope : ("${activityToken(activityID)}" AND "comment")`})`.execute(trx); // prettier-ignore
  }
}

/** Drops every document of an event (before it is indexed anew). */
export async function dropEvent(trx: Kysely<DB>, eventID: number, eventWord: string): Promise<void> {
  if (isPostgres(trx))
    await sql`delete from "searchIndex" where "doc" @@ to_tsquery('simple', ${`${eventWord}:D`}) and "eventID" = ${eventID}`.execute(trx); // prettier-ignore
  else
    await sql`delete from "searchIndex" where rowid in
      (select rowid from "searchIndex" where "searchIndex" match ${`scope : ${quoted(eventWord)}`})`.execute(trx);
}

/** Notes, in a write's transaction, that these attendees of `eventID` are to be indexed again (pending.ts). */
export async function notePending(trx: Kysely<DB>, eventID: number, personIDs: readonly number[]): Promise<void> {
  if (personIDs.length === 0) return;
  await trx
    .insertInto('searchPending')
    .values(personIDs.map((personID) => ({ eventID, personID })))
    .execute();
}

/** Whether anything waits, without a transaction (on SQLite a round's transaction takes the write lock). */
export async function anyPending(db: Kysely<DB>): Promise<boolean> {
  return (await db.selectFrom('searchPending').select('pendingID').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * In a round's transaction: on PostgreSQL, whether this transaction is the one round across processes
 * (two rounds writing the same attendee's document at once would collide on its key); SQLite's write
 * lock already makes rounds one at a time.
 */
export async function lockPending(trx: Kysely<DB>): Promise<boolean> {
  if (!isPostgres(trx)) return true;
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext('podium.searchPending')) as "locked"`.execute(trx); // prettier-ignore
  return rows[0]?.locked === true;
}

/** The oldest `limit` notes. */
export async function takePending(trx: Kysely<DB>, limit: number) {
  return trx
    .selectFrom('searchPending')
    .select(['pendingID', 'eventID', 'personID'])
    .orderBy('pendingID')
    .limit(limit)
    .execute();
}

/** Forgets these notes (their attendees' documents were written in the same transaction). */
export async function dropPending(trx: Kysely<DB>, pendingIDs: readonly number[]): Promise<void> {
  for (let i = 0; i < pendingIDs.length; i += CHUNK)
    await trx
      .deleteFrom('searchPending')
      .where('pendingID', 'in', pendingIDs.slice(i, i + CHUNK))
      .execute();
}
