import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Attendees' address checks follow the change log (issue 15; src/platform/resources/sanity/job.ts)
// through a feed of their own, `sanity`, beside the webhooks' `main` and the confirmations' `confirm`.
// It starts where `main` stands: the addresses of the attendees before it are checked when an
// organizer asks (event.sanity.refresh), as they were until now.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into ${sql.table('webhookFeed')} (name, ${sql.ref('lastID')}, gaps)
    select 'sanity', ${sql.ref('lastID')}, '[]' from ${sql.table('webhookFeed')} where name = 'main'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from ${sql.table('webhookFeed')} where name = 'sanity'`.execute(db);
}
