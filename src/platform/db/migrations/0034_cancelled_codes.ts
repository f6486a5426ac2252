import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The codes of registrations that were cancelled (event.person.dismiss, by an admin or the attendee):
// a door that scans one says "registration cancelled" instead of "unknown code", so staff can tell a
// real ticket that no longer admits from a misread or a forgery. Only the SHA-256 of the code is kept,
// never who held it: the person is gone from the event.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cancelledCode')
    .addColumn('eventID', 'integer', (c) => c.notNull())
    // Hex SHA-256 of the qrCode.
    .addColumn('codeHash', 'text', (c) => c.notNull())
    // Unix seconds.
    .addColumn('cancelledAt', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('cancelledCode_pk', ['eventID', 'codeHash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cancelledCode').execute();
}
