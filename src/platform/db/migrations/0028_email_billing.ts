import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The unit of the e-mail balance a message holds (issue 15, billing): `emailLog.billingID` names the
// billing row a unit was taken from for this message, written in the transaction that takes it and
// cleared in the one that gives it back. A run that takes over a message whose sender died mid-send finds
// the unit already taken and does not take a second one (it did, before: the message was charged twice).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('emailLog')
    .addColumn('billingID', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emailLog').dropColumn('billingID').execute();
}
