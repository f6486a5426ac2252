import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Every registration of a person in an event gets its own id, `enrollmentID` (spec §2.3 short attendee
// shape): a positive integer, unique across the store, fixed for the life of the registration and never
// given to another one, like activityPerson.enrollmentID (a separate series). Existing registrations
// are numbered in the order they were made. The store assigns it, so every insert (the API, the seed,
// the CLI, a test writing straight to the store) gets one without naming it:
// - PostgreSQL: a sequence, the column's default;
// - SQLite: a one-row counter bumped by a trigger after each insert (an ALTER TABLE cannot add an
//   autoincrement column, and max()+1 would give the id of a removed newest registration again).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('eventPerson').addColumn('enrollmentID', 'integer').execute();
  // The same statement on both stores (UPDATE … FROM: SQLite 3.33+, PostgreSQL).
  await sql`
    update ${sql.table('eventPerson')} set ${sql.ref('enrollmentID')} = r.n
    from (
      select ${sql.ref('eventID')}, ${sql.ref('personID')},
        row_number() over (order by ${sql.ref('enrollmentDate')}, ${sql.ref('eventID')}, ${sql.ref('personID')}) as n
      from ${sql.table('eventPerson')}
    ) as r
    where r.${sql.ref('eventID')} = ${sql.table('eventPerson')}.${sql.ref('eventID')}
      and r.${sql.ref('personID')} = ${sql.table('eventPerson')}.${sql.ref('personID')}
  `.execute(db);
  const { last } = (
    await sql<{
      last: number | null;
    }>`select max(${sql.ref('enrollmentID')}) as last from ${sql.table('eventPerson')}`.execute(db)
  ).rows[0]!;
  const next = Number(last ?? 0) + 1;

  if (isPostgres(db)) {
    await sql`create sequence ${sql.ref('eventPerson_enrollmentID_seq')} owned by ${sql.ref('eventPerson.enrollmentID')}`.execute(
      db,
    );
    await sql`select setval('"eventPerson_enrollmentID_seq"', ${next}, false)`.execute(db);
    await sql`
      alter table ${sql.table('eventPerson')}
        alter column ${sql.ref('enrollmentID')} set default nextval('"eventPerson_enrollmentID_seq"'),
        alter column ${sql.ref('enrollmentID')} set not null
    `.execute(db);
  } else {
    await db.schema
      .createTable('enrollmentSequence')
      .addColumn('next', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into ${sql.table('enrollmentSequence')} (${sql.ref('next')}) values (${next})`.execute(db);
    await sql`
      create trigger ${sql.ref('eventPerson_enrollmentID')} after insert on ${sql.table('eventPerson')}
      when new.${sql.ref('enrollmentID')} is null
      begin
        update ${sql.table('eventPerson')} set ${sql.ref('enrollmentID')} = (select ${sql.ref('next')} from ${sql.table('enrollmentSequence')})
          where rowid = new.rowid;
        update ${sql.table('enrollmentSequence')} set ${sql.ref('next')} = ${sql.ref('next')} + 1;
      end
    `.execute(db);
  }
  await db.schema.createIndex('eventPerson_enrollmentID').on('eventPerson').column('enrollmentID').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('eventPerson_enrollmentID').execute();
  if (!isPostgres(db)) {
    await sql`drop trigger ${sql.ref('eventPerson_enrollmentID')}`.execute(db);
    await db.schema.dropTable('enrollmentSequence').execute();
  }
  // On PostgreSQL the sequence goes with the column (owned by it).
  await db.schema.alterTable('eventPerson').dropColumn('enrollmentID').execute();
}
