import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Applicants and guests (issue 16). `event.approvalRequired`: 1 makes the public registration form
// record an application instead of an attendee (form.edit key approvalRequired). `eventApplicant`: one
// application per person and event, holding what the form sent until an admin approves it
// (event.applicant.approve makes the attendee from it) or dismisses it (the row goes). `eventGuest`: the
// guests an attendee (the host) brings, up to the event's guestsForMember; they count against capacity.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('event')
    .addColumn('approvalRequired', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  let a = db.schema
    .createTable('eventApplicant')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('personID', 'integer', (c) => c.notNull().references('person.personID').onDelete('cascade'));
  // The event's profile of the applicant, as sent (copied to eventPerson on approval).
  for (const column of ['username', 'email', 'firstName', 'lastName', 'name', 'image', 'role', 'company', 'telephone'])
    a = a.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
  await a
    // The event-scope password's hash ('' when none), for the attendee it becomes.
    .addColumn('passwordHash', 'text', (c) => c.notNull().defaultTo(''))
    // The form's answers: JSON list of [feedbackID, value]; attendee tags: JSON list of tagIDs.
    .addColumn('answers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tagIDs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('rsvp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
    // `form`, `event.applicant.bind`, `import`.
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo(''))
    // 0: waiting for a decision; 1: approved (the person is an attendee since approvedDate).
    .addColumn('approved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dateCreated', 'bigint', (c) => c.notNull())
    .addColumn('approvedDate', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('eventApplicant_pk', ['eventID', 'personID'])
    .execute();

  const g = db.schema.createTable('eventGuest');
  await (
    isPostgres(db)
      ? g.addColumn('eventGuestID', 'serial', (c) => c.primaryKey())
      : g.addColumn('eventGuestID', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    // The attendee who brings the guest.
    .addColumn('hostID', 'integer', (c) => c.notNull().references('person.personID').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('dateCreated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('eventGuest_event_host').on('eventGuest').columns(['eventID', 'hostID']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('eventGuest').execute();
  await db.schema.dropTable('eventApplicant').execute();
  await db.schema.alterTable('event').dropColumn('approvalRequired').execute();
}
