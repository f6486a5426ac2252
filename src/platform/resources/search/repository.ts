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
// the last as a prefix; no other filter reads a row that does not match. (On PostgreSQL the event is
// only its scope word: with "eventID" = … too, the planner may read the event's rows by the key instead.)

/** Weights of title, body, more (scope never counts): FTS5's bm25 and PostgreSQL's ts_rank ({D,C,B,A}). */
const BM25 = sql.raw('10.0, 3.0, 1.0, 0.0');
const TS_WEIGHTS = '{0, 0.1, 0.3, 1}';
/** Keys per statement when replacing documents (well under either store's parameter limit). */
export const CHUNK = 200;

/** What the platform narrows a search to: every word of `all` and at least one of `any` (scope words). */
export interface Scope {
  readonly all: readonly string[];
  readonly any: readonly string[];
}

const quoted = (w: string) => `"${w}"`; // words are letters and digits only (text.ts): nothing to escape

/** FTS5's MATCH text: the scope on the scope column, the words on the others, the last a prefix. */
export function ftsQuery(scope: Scope, terms: Terms): string {
  const last = terms.words.length - 1;
  const words = terms.words.map((w, i) => (i === last ? `${quoted(w)} *` : quoted(w)));
  const all = scope.all.map(quoted).join(' AND ');
  return `scope : (${all} AND (${scope.any.map(quoted).join(' OR ')})) AND {title body more} : (${words.join(' AND ')})`;
}

/** PostgreSQL's tsquery text: the same, scope words with weight D, the person's with A, B or C. */
export function tsQuery(scope: Scope, terms: Terms): { full: string; user: string } {
  const last = terms.words.length - 1;
  const user = terms.words.map((w, i) => `${w}:${i === last ? '*' : ''}ABC`).join(' & ');
  const all = scope.all.map((w) => `${w}:D`).join(' & ');
  return { full: `${all} & (${scope.any.map((w) => `${w}:D`).join(' | ')}) & ${user}`, user };
}

const typeOrder = sql.raw(`case "type" ${SEARCH_TYPES.map((t, i) => `when '${t}' then ${i}`).join(' ')} end`);

export interface IndexHit {
  type: SearchType;
  objectID: number;
  title: string;
  body: string;
  score: number;
  top: number;
  total: number;
}

/** One page of the event's matching documents, best first (then by type, then id), with the best score and the count. */
export function matchQuery(db: Kysely<DB>, eventID: number, scope: Scope, terms: Terms, limit: number, offset: number) {
  const page = sql`select "type", "objectID", "title", "body", "score", max("score") over () as "top",
      count(*) over () as "total"
    from hit order by "score" desc, ${typeOrder}, "objectID" limit ${limit} offset ${offset}`;
  if (isPostgres(db)) {
    const q = tsQuery(scope, terms);
    return sql<IndexHit>`with hit as (
        select "type", "objectID", "title", "body",
          ts_rank(${TS_WEIGHTS}::float4[], "doc", to_tsquery('simple', ${q.user})) as "score"
        from "searchIndex" where "doc" @@ to_tsquery('simple', ${q.full}))
      ${page}`;
  }
  return sql<IndexHit>`with hit as (
      select "type", "objectID", "title", "body", -bm25("searchIndex", ${BM25}) as "score"
      from "searchIndex" where "searchIndex" match ${ftsQuery(scope, terms)} and "eventID" = ${eventID})
    ${page}`;
}

export async function matchIndex(
  db: Kysely<DB>,
  eventID: number,
  scope: Scope,
  terms: Terms,
  limit: number,
  offset: number,
): Promise<IndexHit[]> {
  const { rows } = await matchQuery(db, eventID, scope, terms, limit, offset).execute(db);
  return rows.map((r) => ({
    ...r,
    objectID: Number(r.objectID),
    score: Number(r.score),
    top: Number(r.top),
    total: Number(r.total),
  }));
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
        : sql`(${d.eventID}, ${d.type}, ${d.objectID}, ${d.title}, ${d.body}, ${d.more}, ${d.scope})`,
    );
    await sql`insert into "searchIndex" ("eventID", "type", "objectID", "title", "body", "more", "scope"${sql.raw(pg ? ', "doc"' : '')})
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
