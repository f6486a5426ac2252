import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Webhooks (issue 14). `webhook`: a company's (or one event's) registration, its signing secret sealed
// with WEBHOOK_SECRET_KEY (AES-256-GCM; a leaked row does not reveal it), the previous secret while a
// rotation's 24 h last. `webhookDelivery`: one per (webhook, change) — or per ping —, with the body it
// carries, so every attempt and a catch-up (webhook.events) send the same bytes. `webhookAttempt`: each
// try's time, status, latency and the first 1 KB of the answer. `webhookFeed`: where the feeder that
// turns the change log into deliveries stands. The change log gains what a delivery needs and the log
// did not keep: the ids of the call, and whether the call asked to skip webhooks (bypassWebhook=1).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

function withID(db: Kysely<any>, table: string, column: string) {
  const t = db.schema.createTable(table);
  return isPostgres(db)
    ? t.addColumn(column, 'bigserial', (c) => c.primaryKey())
    : t.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<any>): Promise<void> {
  await withID(db, 'webhook', 'webhookID')
    .addColumn('companyID', 'integer', (c) => c.notNull())
    // Null for a company-wide webhook; else only this event's changes.
    .addColumn('eventID', 'integer')
    // Who registered it: the payload's object is read with this person's rights (an admin's view).
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // Comma-separated operation names; '' for every type.
    .addColumn('types', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    // Why it was turned off by the platform ('' when by its admin or never): `410`, `failing`.
    .addColumn('disabledReason', 'text', (c) => c.notNull().defaultTo(''))
    // Sealed secrets (base64 iv.tag.ciphertext); the old one signs too until oldSecretUntil (Unix ms).
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('oldSecret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('oldSecretUntil', 'bigint', (c) => c.notNull().defaultTo(0))
    // Unix ms: registration, and the first failure of the current run of failures (null when the last attempt succeeded).
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .addColumn('failingSince', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_company').on('webhook').columns(['companyID', 'webhookID']).execute();

  await withID(db, 'webhookDelivery', 'deliveryID')
    .addColumn('webhookID', 'bigint', (c) => c.notNull())
    // Null for a ping (webhook.test).
    .addColumn('changeID', 'bigint')
    .addColumn('type', 'text', (c) => c.notNull())
    // The JSON body, exactly as sent.
    .addColumn('payload', 'text', (c) => c.notNull())
    // pending, delivered, failed.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Unix ms: made, and when the next attempt is due (null once settled).
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .addColumn('nextAt', 'bigint')
    .execute();
  // One delivery per change per webhook, whichever feeder got there first (nulls are distinct: pings).
  await db.schema
    .createIndex('webhook_delivery_change')
    .on('webhookDelivery')
    .columns(['webhookID', 'changeID'])
    .unique()
    .execute();
  await db.schema.createIndex('webhook_delivery_created').on('webhookDelivery').column('createdAt').execute();

  await withID(db, 'webhookAttempt', 'attemptID')
    .addColumn('deliveryID', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    // HTTP status; 0 when there was no answer (refused address, timeout, connection error).
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('latencyMs', 'integer', (c) => c.notNull())
    // The first 1 KB of the answer's body, or the reason there was none.
    .addColumn('response', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempt_delivery')
    .on('webhookAttempt')
    .columns(['deliveryID', 'attemptID'])
    .execute();

  await db.schema
    .createTable('webhookFeed')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('lastID', 'bigint', (c) => c.notNull())
    // Ids below lastID not seen yet, JSON [[id, noticedMs], …]: on PostgreSQL a transaction may commit
    // after one with a higher id; the feeder looks for these again for a while.
    .addColumn('gaps', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .alterTable('change')
    .addColumn('ids', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('change')
    .addColumn('quiet', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The feeder starts where the log ends: changes before webhooks existed deliver nothing.
  await sql`insert into ${sql.table('webhookFeed')} (name, ${sql.ref('lastID')}, gaps)
    select 'main', coalesce(max(${sql.ref('changeID')}), 0), '[]' from ${sql.table('change')}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('change').dropColumn('quiet').execute();
  await db.schema.alterTable('change').dropColumn('ids').execute();
  for (const t of ['webhookFeed', 'webhookAttempt', 'webhookDelivery', 'webhook'])
    await db.schema.dropTable(t).execute();
}
