import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Chat, comments and error reports (issue 16). `chat`: messages between two people of one event (spec
// §2.6 chatID, senderID, receiverID, eventID, message, date, viewed). `comment`: a comment on a session
// (spec §2.6 commentID, activityID, personID, text, date; `approved` is its edit key) and `commentTag`:
// the #hashtags of each comment, extracted on write, which comment.hashtags counts. `errorReport`: what
// client apps report with error.create (spec §7.6 personID, platform, message, date, solved), with the
// optional crash-report fields, secrets redacted before they are stored.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const serial = <T extends { addColumn: any }>(t: T, name: string): T =>
    pg
      ? t.addColumn(name, 'serial', (c: any) => c.primaryKey())
      : t.addColumn(name, 'integer', (c: any) => c.primaryKey().autoIncrement());

  await serial(db.schema.createTable('chat'), 'chatID')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('senderID', 'integer', (c) => c.notNull())
    .addColumn('receiverID', 'integer', (c) => c.notNull())
    // Plain text through the sanitizer: no element survives, &, < and > are character references.
    .addColumn('message', 'text', (c) => c.notNull())
    // Unix seconds.
    .addColumn('date', 'bigint', (c) => c.notNull())
    // 1 once the receiver has read it (chat.view).
    .addColumn('viewed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // A conversation is read from either side: (sender, receiver) and (receiver, sender), newest first.
  await db.schema.createIndex('chat_sender').on('chat').columns(['eventID', 'senderID', 'receiverID', 'chatID']).execute(); // prettier-ignore
  await db.schema.createIndex('chat_receiver').on('chat').columns(['eventID', 'receiverID', 'senderID', 'chatID']).execute(); // prettier-ignore

  await serial(db.schema.createTable('comment'), 'commentID')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('activityID', 'integer', (c) => c.notNull().references('activity.activityID').onDelete('cascade'))
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // Unix seconds of creation, and of the last edit of its text (0: never edited).
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addColumn('updatedDate', 'bigint', (c) => c.notNull().defaultTo(0))
    // 1: shown to everyone; 0: waiting for moderation (company tool autoApproveComment).
    .addColumn('approved', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('comment_activity').on('comment').columns(['activityID', 'commentID']).execute();
  await db.schema.createIndex('comment_event').on('comment').columns(['eventID', 'commentID']).execute();

  await db.schema
    .createTable('commentTag')
    .addColumn('commentID', 'integer', (c) => c.notNull().references('comment.commentID').onDelete('cascade'))
    .addColumn('activityID', 'integer', (c) => c.notNull())
    // Lower case, without the '#'.
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('commentTag_pk', ['commentID', 'tag'])
    .execute();
  await db.schema.createIndex('commentTag_activity').on('commentTag').columns(['activityID', 'tag']).execute();

  await serial(db.schema.createTable('errorReport'), 'errorID')
    // 0: reported without a token.
    .addColumn('personID', 'integer', (c) => c.notNull().defaultTo(0))
    // The event the report names (error.create eventID), and its company: who may read it besides operators.
    .addColumn('eventID', 'integer', (c) => c.references('event.eventID').onDelete('set null'))
    .addColumn('companyID', 'integer', (c) => c.references('company.companyID').onDelete('set null'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('stackTrace', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('initialConfiguration', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('build', 'text', (c) => c.notNull().defaultTo(''))
    // The raw JSON body of the `json` form, re-serialized with its secrets redacted.
    .addColumn('json', 'text', (c) => c.notNull().defaultTo(''))
    // The reporter's network only: /24 of IPv4, /48 of IPv6.
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addColumn('solved', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('errorReport_company').on('errorReport').columns(['companyID', 'errorID']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('errorReport').execute();
  await db.schema.dropTable('commentTag').execute();
  await db.schema.dropTable('comment').execute();
  await db.schema.dropTable('chat').execute();
}
