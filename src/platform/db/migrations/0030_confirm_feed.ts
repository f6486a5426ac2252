import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Registration confirmations follow the change log (issue 15; src/platform/resources/email/confirmation.ts)
// through a feed of their own, `confirm`, beside the webhooks' `main`: read on a timer, so that one round
// queues the e-mails of many registrations. It starts where `main` stands: until now confirmations were
// queued in their registrations' transactions, so the changes before it were confirmed already.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into ${sql.table('webhookFeed')} (name, ${sql.ref('lastID')}, gaps)
    select 'confirm', ${sql.ref('lastID')}, '[]' from ${sql.table('webhookFeed')} where name = 'main'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from ${sql.table('webhookFeed')} where name = 'confirm'`.execute(db);
}
