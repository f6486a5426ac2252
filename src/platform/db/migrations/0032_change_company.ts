import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// A write with no token (a registration or an application through the public form) logged its change
// without a company, so no webhook, push stream or cache heard of it. New changes take their event's
// company (src/platform/resources/change/log.ts); this gives the ones already logged theirs, so
// webhook.events replays them to the event's company.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update ${sql.table('change')} set ${sql.ref('companyID')} = (
      select e.${sql.ref('companyID')} from ${sql.table('event')} e
      where e.${sql.ref('eventID')} = ${sql.table('change')}.${sql.ref('eventID')})
    where ${sql.ref('companyID')} is null and ${sql.ref('eventID')} is not null`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: the companies are the changes' own.
}
