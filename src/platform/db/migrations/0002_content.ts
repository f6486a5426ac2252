import { type Kysely, type CreateTableBuilder } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
// Event content (issue 3): activities and their relations, speakers, sponsors, lists, hotsite
// sections, the registration form (custom fields, invitees) and the attendee profile fields.

type Table = CreateTableBuilder<string, any>;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

function withId(db: Kysely<any>, table: Table, column: string): Table {
  return isPostgres(db)
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

const text = (t: Table, ...names: string[]) =>
  names.reduce((acc, n) => acc.addColumn(n, 'text', (c) => c.notNull().defaultTo('')), t);
const ints = (t: Table, ...names: string[]) =>
  names.reduce((acc, n) => acc.addColumn(n, 'integer', (c) => c.notNull().defaultTo(0)), t);
const times = (t: Table, ...names: string[]) =>
  names.reduce((acc, n) => acc.addColumn(n, 'bigint', (c) => c.notNull().defaultTo(0)), t);
const ref = (t: Table, column: string, target: string) =>
  t.addColumn(column, 'integer', (c) => c.notNull().references(target).onDelete('cascade'));

/** A relation table: two references, both the primary key. */
async function link(db: Kysely<any>, name: string, a: [string, string], b: [string, string]) {
  let t = db.schema.createTable(name);
  t = ref(t, a[0], a[1]);
  t = ref(t, b[0], b[1]);
  await t.addPrimaryKeyConstraint(`${name}_pk`, [a[0], b[0]] as never).execute();
  await db.schema.createIndex(`${name}_${b[0]}`).on(name).column(b[0]).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // Attendee profile fields (spec §2.3) live on the person; event-specific ones on eventPerson.
  for (const column of ['summary', 'headline', 'city', 'socialA', 'socialB', 'socialC', 'socialD', 'website']) {
    await db.schema
      .alterTable('person')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  // Registration looks people up by e-mail (one attendee per e-mail in an event, whatever the username).
  await db.schema.createIndex('person_email').on('person').column('email').execute();
  for (const column of ['language', 'assistantEmail', 'nfc', 'qrCode']) {
    await db.schema
      .alterTable('eventPerson')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  for (const column of ['ticketID', 'profileID']) {
    await db.schema
      .alterTable('eventPerson')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // Enrollment settings of the registration form.
  const eventColumns: [string, 'integer' | 'text', number | string][] = [
    ['enrollmentOpen', 'integer', 1],
    ['inviteRequired', 'integer', 0],
    ['waitingList', 'integer', 0],
    ['printLimit', 'integer', 0],
    ['consent', 'text', ''],
  ];
  for (const [column, type, value] of eventColumns) {
    await db.schema
      .alterTable('event')
      .addColumn(column, type, (c) => c.notNull().defaultTo(value))
      .execute();
  }

  let activity = withId(db, db.schema.createTable('activity'), 'activityID');
  activity = ref(activity, 'eventID', 'event.eventID');
  activity = text(activity, 'name', 'description', 'location', 'stream');
  activity = activity.addColumn('latitude', 'double precision');
  activity = activity.addColumn('longitude', 'double precision');
  activity = ints(activity, 'personID', 'placeID', 'capacity', 'oversize', 'general', 'highlight', 'lockOperations');
  activity = times(activity, 'dateBegin', 'dateEnd', 'dateCreated', 'updatedDate');
  await activity.execute();
  await db.schema.createIndex('activity_event_date').on('activity').columns(['eventID', 'dateBegin']).execute();

  let attendee = withId(db, db.schema.createTable('activityPerson'), 'enrollmentID');
  attendee = ref(attendee, 'activityID', 'activity.activityID');
  attendee = ref(attendee, 'eventID', 'event.eventID');
  attendee = ref(attendee, 'personID', 'person.personID');
  attendee = ints(attendee, 'approved', 'paid', 'present', 'priori', 'rating', 'position');
  attendee = times(attendee, 'dateCreated');
  attendee = attendee.addUniqueConstraint('activityPerson_activity_person', ['activityID', 'personID'] as never);
  await attendee.execute();
  await db.schema
    .createIndex('activityPerson_event_person')
    .on('activityPerson')
    .columns(['eventID', 'personID'])
    .execute();

  let chain = withId(db, db.schema.createTable('chain'), 'chainID');
  chain = ref(chain, 'eventID', 'event.eventID');
  chain = text(chain, 'name');
  chain = chain.addColumn('maxPerPerson', 'integer', (c) => c.notNull().defaultTo(1));
  await chain.execute();
  await link(db, 'activityChain', ['chainID', 'chain.chainID'], ['activityID', 'activity.activityID']);

  let list = withId(db, db.schema.createTable('list'), 'listID');
  list = ref(list, 'eventID', 'event.eventID');
  list = text(list, 'name');
  list = times(list, 'dateCreated');
  await list.execute();
  await link(db, 'listPerson', ['listID', 'list.listID'], ['personID', 'person.personID']);
  await link(db, 'activityList', ['activityID', 'activity.activityID'], ['listID', 'list.listID']);

  let speaker = withId(db, db.schema.createTable('speaker'), 'speakerID');
  speaker = ref(speaker, 'eventID', 'event.eventID');
  speaker = speaker.addColumn('personID', 'integer', (c) => c.references('person.personID').onDelete('set null'));
  speaker = text(speaker, 'name', 'headline', 'description', 'category', 'image', 'email', 'website');
  speaker = text(speaker, 'socialA', 'socialB', 'socialC');
  speaker = ints(speaker, 'position');
  await speaker.execute();
  await db.schema.createIndex('speaker_event').on('speaker').column('eventID').execute();

  let sponsor = withId(db, db.schema.createTable('sponsor'), 'sponsorID');
  sponsor = ref(sponsor, 'eventID', 'event.eventID');
  sponsor = text(sponsor, 'companyName', 'name', 'telephone', 'email', 'website', 'bio', 'logo', 'category', 'tier');
  sponsor = ints(sponsor, 'tierRank', 'position');
  await sponsor.execute();
  await db.schema.createIndex('sponsor_event').on('sponsor').column('eventID').execute();

  await link(db, 'activitySpeaker', ['activityID', 'activity.activityID'], ['speakerID', 'speaker.speakerID']);
  await link(db, 'activitySponsor', ['activityID', 'activity.activityID'], ['sponsorID', 'sponsor.sponsorID']);
  await link(db, 'activityTag', ['activityID', 'activity.activityID'], ['tagID', 'tag.tagID']);

  let personTag = db.schema.createTable('eventPersonTag');
  personTag = ref(personTag, 'eventID', 'event.eventID');
  personTag = ref(personTag, 'personID', 'person.personID');
  personTag = ref(personTag, 'tagID', 'tag.tagID');
  await personTag.addPrimaryKeyConstraint('eventPersonTag_pk', ['eventID', 'personID', 'tagID'] as never).execute();
  await db.schema.createIndex('eventPersonTag_tag').on('eventPersonTag').column('tagID').execute();
  await db.schema.createIndex('tag_event').on('tag').column('eventID').execute();

  let section = withId(db, db.schema.createTable('hotsite'), 'sectionID');
  section = ref(section, 'eventID', 'event.eventID');
  section = text(section, 'section', 'name', 'text');
  section = ints(section, 'position');
  await section.execute();
  await db.schema.createIndex('hotsite_event').on('hotsite').columns(['eventID', 'position']).execute();

  let feedback = withId(db, db.schema.createTable('feedback'), 'feedbackID');
  feedback = ref(feedback, 'eventID', 'event.eventID');
  feedback = text(feedback, 'name', 'description', 'type', 'options');
  feedback = feedback.addColumn('apiKey', 'text');
  feedback = ints(feedback, 'required', 'position');
  feedback = feedback.addUniqueConstraint('feedback_event_apiKey', ['eventID', 'apiKey'] as never);
  await feedback.execute();

  let answer = db.schema.createTable('feedbackAnswer');
  answer = ref(answer, 'feedbackID', 'feedback.feedbackID');
  answer = ref(answer, 'personID', 'person.personID');
  answer = ref(answer, 'eventID', 'event.eventID');
  answer = text(answer, 'value');
  await answer.addPrimaryKeyConstraint('feedbackAnswer_pk', ['feedbackID', 'personID'] as never).execute();
  await db.schema
    .createIndex('feedbackAnswer_event_person')
    .on('feedbackAnswer')
    .columns(['eventID', 'personID'])
    .execute();

  let invite = db.schema.createTable('eventInvite');
  invite = ref(invite, 'eventID', 'event.eventID');
  invite = invite.addColumn('email', 'text', (c) => c.notNull());
  invite = times(invite, 'dateCreated');
  await invite.addPrimaryKeyConstraint('eventInvite_pk', ['eventID', 'email'] as never).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'eventInvite',
    'feedbackAnswer',
    'feedback',
    'hotsite',
    'eventPersonTag',
    'activityTag',
    'activitySponsor',
    'activitySpeaker',
    'sponsor',
    'speaker',
    'activityList',
    'listPerson',
    'list',
    'activityChain',
    'chain',
    'activityPerson',
    'activity',
  ])
    // prettier-ignore
    await db.schema.dropTable(t).execute();
}
