import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// A custom domain is served only once its owner has shown, in DNS, that the domain is theirs (a
// `_podium.<domain>` TXT record with the company's token). Until then the domain an organizer asked
// for waits in cnameAsked; `cname` stays the domain served (unique, what lookups by Host read).
// cnameState says where the check is ('' none asked, 'checking', 'verified', 'missing', 'wrong',
// 'error') and cnameDNS holds the last check's result as JSON.
//
// Domains set before this check existed were set by the platform's own operators' rules of the time:
// they keep being served, as verified.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').addColumn('cnameAsked', 'text').execute();
  await db.schema
    .alterTable('event')
    .addColumn('cnameState', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('event')
    .addColumn('cnameDNS', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db
    .updateTable('event')
    .set({ cnameAsked: sql.ref('cname'), cnameState: 'verified' })
    .where('cname', 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['cnameDNS', 'cnameState', 'cnameAsked'])
    await db.schema.alterTable('event').dropColumn(column).execute();
}
