import { type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Messaging (issue 15): the e-mail log (spec §2.6 "E-mail log"), one row per message the platform
// means to send, keyed by what the message is for (`idem`: the confirmation of a registration, a custom
// e-mail to one recipient), so a job run again (a worker killed mid-send, a lease that ran out) finds
// the row and never sends the same message twice; the custom e-mails of an event (spec "Custom e-mail");
// the suppression list (spec "E-mail blacklist entry"), which every message, transactional or bulk,
// reads before it goes.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

function withId(db: Kysely<any>, name: string, id: string) {
  const table = db.schema.createTable(name);
  return isPostgres(db)
    ? table.addColumn(id, 'bigserial', (c) => c.primaryKey())
    : table.addColumn(id, 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, 'emailLog', 'emailLogID')
    // No foreign keys: the log outlives a removed person, as a mail server's log does.
    .addColumn('eventID', 'integer', (c) => c.notNull())
    .addColumn('personID', 'integer', (c) => c.notNull().defaultTo(0))
    // The custom e-mail (eventEmail) the message is of; 0 for the registration confirmation.
    .addColumn('eventEmailID', 'integer', (c) => c.notNull().defaultTo(0))
    // 'confirmation', 'custom' or 'test'.
    .addColumn('kind', 'text', (c) => c.notNull())
    // Unique: what this message is for ('confirmation:<eventID>:<personID>', 'email:<id>:<personID>').
    .addColumn('idem', 'text', (c) => c.notNull().unique())
    .addColumn('messageID', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('from', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    // queued → sending → sent | failed (hard bounce) | skipped (suppressed) | unknown (a worker died
    // while sending: not sent again, since it may have gone).
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    // Why it failed, was skipped or waits for another attempt; one plain line.
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('opens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Unix seconds: when the row was made, and when its status last changed.
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addColumn('updatedDate', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_log_event').on('emailLog').columns(['eventID', 'emailLogID']).execute();
  await db.schema.createIndex('email_log_email').on('emailLog').columns(['eventEmailID', 'status']).execute();

  await withId(db, 'eventEmail', 'eventEmailID')
    .addColumn('eventID', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    // The organizer's text: sanitized HTML with merge fields ({{firstName}}).
    .addColumn('text', 'text', (c) => c.notNull())
    // The list it goes to; 0: everyone in the event.
    .addColumn('listID', 'integer', (c) => c.notNull().defaultTo(0))
    // '' → 'dispatching' → 'dispatched'.
    .addColumn('state', 'text', (c) => c.notNull().defaultTo(''))
    // Recipients it was sent to (counted by the jobs), and the last person a dispatch batch reached,
    // where the next batch starts (resuming after a restart).
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cursor', 'integer', (c) => c.notNull().defaultTo(0))
    // 1: the HTML carries a tracking pixel and opens are counted (off by default).
    .addColumn('tracking', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_email_event').on('eventEmail').columns(['eventID', 'eventEmailID']).execute();

  await withId(db, 'eventBlacklist', 'eventBlacklistID')
    .addColumn('eventID', 'integer', (c) => c.notNull())
    // Lower-case.
    .addColumn('email', 'text', (c) => c.notNull())
    // 'bounce' (SMTP 5xx at send), 'webhook' (a reported bounce), 'unsubscribe'; and the server's line.
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('event_blacklist_email', ['eventID', 'email'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('eventBlacklist').execute();
  await db.schema.dropTable('eventEmail').execute();
  await db.schema.dropTable('emailLog').execute();
}
