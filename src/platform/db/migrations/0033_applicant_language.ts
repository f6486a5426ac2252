import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The language an applicant chose (form.respondRegistration's `language`): kept with the application, so
// that the attendee it becomes on approval gets their e-mails and pages in it, as one registered at
// once does ('' = none: the event's).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('eventApplicant')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('eventApplicant').dropColumn('language').execute();
}
