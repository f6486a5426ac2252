import { type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Messaging, the rest of issue 15: an event's own senders (spec §2.6 "Event sender") with the result
// of their domain's DNS checks (SPF, DKIM, DMARC); the address checks of an event's attendees (spec
// "E-mail sanity entry"); and the SMS log, one row per text message asked for, which the per-number
// and per-event rate limits count and a job sends once.

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
  await withId(db, 'eventSender', 'senderID')
    .addColumn('eventID', 'integer', (c) => c.notNull())
    // The organizer the sender belongs to (spec: Q personID).
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('senderName', 'text', (c) => c.notNull().defaultTo(''))
    // Lower-case address; its domain is the one checked.
    .addColumn('senderEmail', 'text', (c) => c.notNull().defaultTo(''))
    // The last check's result as JSON: {spf, dkim, dmarc} each {status, found, expected}.
    .addColumn('senderDNS', 'text', (c) => c.notNull().defaultTo(''))
    // '' never checked, 'checking' (a job runs), 'verified' (all three ok), 'unverified'.
    .addColumn('state', 'text', (c) => c.notNull().defaultTo(''))
    // Unix seconds of the last check (0: never).
    .addColumn('checkedDate', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('event_sender_person', ['eventID', 'personID'])
    .execute();

  await withId(db, 'eventSanity', 'eventSanityID')
    .addColumn('eventID', 'integer', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    // 1 the address looks deliverable, 0 not (reason says why).
    .addColumn('clean', 'integer', (c) => c.notNull().defaultTo(1))
    // '', 'syntax', 'no-mx', 'disposable', 'role'.
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    // 1: an organizer set `clean` by hand (event.sanity.operate); a later check keeps their word.
    .addColumn('manual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('event_sanity_email', ['eventID', 'email'])
    .execute();

  await withId(db, 'smsLog', 'smsLogID')
    .addColumn('eventID', 'integer', (c) => c.notNull())
    // E.164: +<country><number>.
    .addColumn('telephone', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // The caller's network address (the per-address limit counts it).
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    // queued → sending → sent | failed | skipped (no balance left) | unknown (a worker died sending).
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addColumn('updatedDate', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_log_phone').on('smsLog').columns(['telephone', 'date']).execute();
  await db.schema.createIndex('sms_log_event').on('smsLog').columns(['eventID', 'date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('smsLog').execute();
  await db.schema.dropTable('eventSanity').execute();
  await db.schema.dropTable('eventSender').execute();
}
