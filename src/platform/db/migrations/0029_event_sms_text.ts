import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The text an event's SMS says (issue 15 outcome 6, event.sendSMS; docs/messaging.md "SMS"): set by the
// organizer with `event.edit key=smsText`, '' for the default (the event's name and link).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('event')
    .addColumn('smsText', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').dropColumn('smsText').execute();
}
