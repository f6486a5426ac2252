import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// People split into an identity and per-tenant views (docs/api.md "People: identity and profiles"):
// - person keeps the identity: username, e-mail, system password, account names (changed only with
//   proof: the person's own system-scope token or a one-time link sent to the address);
// - eventPerson gets the profile the person gave to that event (names, e-mail, role, company, …);
// - companyPerson gets the name and e-mail the company gave when it added the person;
// - confirmation holds one-time links (stored hashed) that prove the owner of an address;
// - accessCodeFailure keeps the wrong access codes tried at an event's gate, for its organizers.
// Existing rows are copied from the person, so every event and company keeps showing what it showed.

/** Profile fields an event sees of its attendee; copied from the person for existing attendees. */
const EVENT_PROFILE = [
  'username', 'email', 'firstName', 'lastName', 'name', 'image', 'telephone', 'role', 'company', 'summary',
  'headline', 'city', 'socialA', 'socialB', 'socialC', 'socialD', 'website',
] as const; // prettier-ignore

const COMPANY_PROFILE = ['name', 'email'] as const;

async function addCopiedColumns(db: Kysely<any>, table: string, columns: readonly string[]): Promise<void> {
  for (const column of columns)
    await db.schema
      .alterTable(table)
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  // One correlated update per table, the same SQL on SQLite and PostgreSQL.
  const sets = columns.map(
    (c) =>
      sql`${sql.ref(c)} = coalesce((select p.${sql.ref(c)} from ${sql.table('person')} as p where p.${sql.ref('personID')} = ${sql.table(table)}.${sql.ref('personID')}), '')`,
  );
  await sql`update ${sql.table(table)} set ${sql.join(sets)}`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await addCopiedColumns(db, 'eventPerson', EVENT_PROFILE);
  await addCopiedColumns(db, 'companyPerson', COMPANY_PROFILE);
  await db.schema.createIndex('eventPerson_event_email').on('eventPerson').columns(['eventID', 'email']).execute();

  await db.schema
    .createTable('confirmation')
    .addColumn('codeHash', 'text', (c) => c.primaryKey())
    .addColumn('personID', 'integer', (c) => c.notNull().references('person.personID').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('eventID', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('dateCreated', 'bigint', (c) => c.notNull())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .addColumn('usedAt', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('confirmation_person').on('confirmation').column('personID').execute();

  // The wrong access codes of an event (event.accessCode.find): when, from which network, whether a
  // solved challenge came with them. Never the code tried.
  const failure = isPostgres(db)
    ? db.schema.createTable('accessCodeFailure').addColumn('failureID', 'serial', (c) => c.primaryKey())
    : db.schema
        .createTable('accessCodeFailure')
        .addColumn('failureID', 'integer', (c) => c.primaryKey().autoIncrement());
  await failure
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('challenged', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('accessCodeFailure_event')
    .on('accessCodeFailure')
    .columns(['eventID', 'failureID'])
    .execute();
}

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('accessCodeFailure').execute();
  await db.schema.dropTable('confirmation').execute();
  await db.schema.dropIndex('eventPerson_event_email').execute();
  for (const c of COMPANY_PROFILE) await db.schema.alterTable('companyPerson').dropColumn(c).execute();
  for (const c of EVENT_PROFILE) await db.schema.alterTable('eventPerson').dropColumn(c).execute();
}
