import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The search index of event.search (issue 16, docs/api/search.md): one document per session, speaker,
// sponsor, site section, attendee (per event) and comment, searched with the store's own text search.
// - SQLite: an FTS5 table (title, body, more, scope; eventID, type, objectID stored, not indexed), the
//   unicode61 tokenizer folding case and accents (remove_diacritics 2).
// - PostgreSQL: a table whose `doc` tsvector holds title (weight A), body (B), more (C) and scope (D)
//   of the 'simple' configuration (no stemming: events are in several languages) over text the platform
//   folded (lower case, accents off: no unaccent extension), with a GIN index.
// The documents of the rows that exist now are written here (the platform keeps them up to date from
// then on: resources/search/maintain.ts); this file keeps its own copy of how one is made.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

// Folded, then only words one blank apart (PostgreSQL's parser would keep an e-mail or a URL whole).
const words = (t: string) =>
  (
    t
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(' ');
const plain = (html: string) =>
  html
    .replace(/<[^>]{0,2000}>/g, ' ')
    .replace(
      /&(amp|lt|gt|quot|#39|nbsp);/g,
      (_m, r: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[r] ?? ' ',
    ) // prettier-ignore
    .replace(/\s+/g, ' ')
    .trim();
const join = (...parts: string[]) => plain(parts.filter(Boolean).join(' ')).slice(0, 20_000);

interface Doc {
  docID: number;
  eventID: number;
  type: string;
  objectID: number;
  title: string;
  body: string;
  more: string;
  scope: string;
}

const TYPES = ['activity', 'speaker', 'sponsor', 'section', 'person', 'comment'];
// docID: the key (an attendee's enrollmentID, else the object's id) times 8 plus the type's place (FTS5's rowid).
const doc = (eventID: number, type: string, objectID: number, title: string, body: string, more = '', extra = '', key = objectID): Doc => ({
  docID: key * 8 + TYPES.indexOf(type), eventID, type, objectID, title: title.trim(), body, more,
  scope: `e${eventID} ${type} ${type === 'person' ? `person${objectID}e${eventID}` : `${type}${objectID}`}${extra}`,
}); // prettier-ignore

/** Every row of each indexed table, a page at a time, as documents. */
const SOURCES: { table: string; key: string; make: (r: any) => Doc }[] = [
  { table: 'activity', key: 'activityID', make: (r) => doc(r.eventID, 'activity', r.activityID, r.name, join(r.location, r.description)) }, // prettier-ignore
  { table: 'speaker', key: 'speakerID', make: (r) => doc(r.eventID, 'speaker', r.speakerID, r.name, join(r.headline, r.category, r.description)) }, // prettier-ignore
  { table: 'sponsor', key: 'sponsorID', make: (r) => doc(r.eventID, 'sponsor', r.sponsorID, r.companyName || r.name, join(r.name, r.category, r.bio)) }, // prettier-ignore
  { table: 'hotsite', key: 'sectionID', make: (r) => doc(r.eventID, 'section', r.sectionID, r.name, join(r.text)) },
  { table: 'eventPerson', key: 'enrollmentID', make: (r) => doc(r.eventID, 'person', r.personID, r.name !== '' ? r.name : `${r.firstName} ${r.lastName}`, [r.role, r.company].filter(Boolean).join(', '), join(r.firstName, r.lastName, r.email, r.headline, r.city), '', r.enrollmentID) }, // prettier-ignore
  { table: 'comment', key: 'commentID', make: (r) => doc(r.eventID, 'comment', r.commentID, '', join(r.text), '', ` a${r.activityID} ${r.approved === 1 ? 'approved' : `waiting p${r.personID}`}`) }, // prettier-ignore
];

async function write(db: Kysely<any>, pg: boolean, docs: Doc[]): Promise<void> {
  if (docs.length === 0) return;
  const rows = docs.map((d) =>
    pg
      ? sql`(${d.eventID}, ${d.type}, ${d.objectID}, ${d.title}, ${d.body}, ${d.more}, ${d.scope},
          setweight(to_tsvector('simple', ${words(d.title)}), 'A') || setweight(to_tsvector('simple', ${words(d.body)}), 'B')
          || setweight(to_tsvector('simple', ${words(d.more)}), 'C') || setweight(to_tsvector('simple', ${d.scope}), 'D'))`
      : sql`(${d.docID}, ${d.eventID}, ${d.type}, ${d.objectID}, ${d.title}, ${d.body}, ${d.more}, ${d.scope})`,
  );
  await sql`insert into "searchIndex" (${sql.raw(pg ? '' : 'rowid, ')}"eventID", "type", "objectID", "title", "body", "more", "scope"${sql.raw(pg ? ', "doc"' : '')})
    values ${sql.join(rows)}`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  if (pg) {
    await sql`create table "searchIndex" (
      "eventID" integer not null, "type" text not null, "objectID" integer not null,
      "title" text not null, "body" text not null, "more" text not null, "scope" text not null,
      "doc" tsvector not null,
      primary key ("type", "objectID", "eventID"))`.execute(db);
    await sql`create index "searchIndex_doc" on "searchIndex" using gin ("doc")`.execute(db);
  } else {
    await sql`create virtual table "searchIndex" using fts5(
      "title", "body", "more", "scope", "eventID" unindexed, "type" unindexed, "objectID" unindexed,
      tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  }
  for (const source of SOURCES) {
    for (let after = 0; ;) {
      const rows = await db
        .selectFrom(source.table)
        .selectAll()
        .where(source.key, '>', after)
        .orderBy(source.key)
        .limit(200)
        .execute();
      if (rows.length === 0) break;
      await write(db, pg, rows.map(source.make));
      after = Number(rows[rows.length - 1][source.key]);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('searchIndex').execute();
}
