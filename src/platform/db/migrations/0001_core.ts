import { type Kysely, type CreateTableBuilder } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.

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

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('setting')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  let person = withId(db, db.schema.createTable('person'), 'personID');
  person = person.addColumn('username', 'text', (c) => c.notNull().unique());
  person = text(person, 'email', 'firstName', 'lastName', 'name', 'image', 'timezone', 'telephone');
  person = text(person, 'socialAID', 'socialBID', 'socialCID', 'role', 'company', 'passwordHash');
  person = ints(person, 'operator');
  person = times(person, 'dateCreated');
  await person.execute();

  await db.schema
    .createTable('token')
    .addColumn('tokenHash', 'text', (c) => c.primaryKey())
    .addColumn('personID', 'integer', (c) => c.notNull().references('person.personID').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('targetID', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dateCreated', 'bigint', (c) => c.notNull())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('token_person').on('token').column('personID').execute();

  let company = withId(db, db.schema.createTable('company'), 'companyID');
  company = company.addColumn('namespace', 'text', (c) => c.notNull().unique());
  company = text(company, 'shortName', 'storeTitle', 'appIcon', 'storeIcon', 'cover', 'splash');
  company = text(company, 'androidBundle', 'iosBundle', 'androidApp', 'iosApp', 'agreement', 'keywords');
  company = text(company, 'backgroundColor', 'navigationBarBackgroundColor', 'mainColor', 'location');
  company = text(company, 'androidVersion', 'iosVersion', 'language', 'currency');
  company = ints(company, 'androidReview', 'iosReview', 'initialDemo');
  company = company.addColumn('onboardingTokenHash', 'text', (c) => c.unique());
  company = times(company, 'onboardingExpiresAt', 'dateCreated');
  await company.execute();

  await db.schema
    .createTable('companyPerson')
    .addColumn('companyID', 'integer', (c) => c.notNull().references('company.companyID').onDelete('cascade'))
    .addColumn('personID', 'integer', (c) => c.notNull().references('person.personID').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('dateCreated', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('companyPerson_pk', ['companyID', 'personID'])
    .execute();
  await db.schema.createIndex('companyPerson_person').on('companyPerson').column('personID').execute();

  let tool = withId(db, db.schema.createTable('companyTool'), 'id');
  tool = tool.addColumn('companyID', 'integer', (c) =>
    c.notNull().unique().references('company.companyID').onDelete('cascade'),
  );
  tool = ints(tool, 'feedback', 'presence', 'material', 'question', 'comment', 'quiz', 'speaker', 'networking');
  tool = ints(tool, 'pushNotification', 'shareOnlyEventDay', 'searchBar', 'socialALogin', 'socialBLogin');
  tool = ints(tool, 'confirmationEmail', 'offlinePush', 'meeting', 'localTimezone', 'aboutUs');
  tool = ints(tool, 'autoApproveQuestion', 'autoApproveComment', 'autoApproveSocialFlow', 'photo', 'quickMenu');
  tool = ints(tool, 'multipleEvents', 'sponsors', 'stream', 'feed', 'schedule', 'socialBLegacy', 'hideFullRooms');
  await tool.execute();

  let event = withId(db, db.schema.createTable('event'), 'eventID');
  event = event.addColumn('companyID', 'integer', (c) =>
    c.notNull().references('company.companyID').onDelete('cascade'),
  );
  event = text(event, 'name', 'nickname', 'emailAddress', 'emailName', 'emailDNS', 'emailReplyTo', 'description');
  event = text(event, 'background', 'cover', 'coverVideo', 'welcomeOverlay', 'activityLayout', 'fontFamily');
  event = text(event, 'page', 'contentPage', 'keywords', 'currency', 'spot', 'address', 'city', 'state');
  event = text(event, 'fugleman', 'ebEventID', 'ticketURL', 'contentLanguage', 'googleAnalytics');
  event = text(event, 'googleTagManager', 'socialAPixel', 'socialBPixel', 'intercomTag', 'website', 'faq');
  event = text(event, 'agreement', 'socialA', 'socialD', 'socialC', 'rss', 'vlTemplate', 'vlControlRoomLayout');
  event = text(event, 'vlBackgroundIdle', 'meetingStartTime', 'meetingEndTime', 'meetingDurationTime');
  event = text(event, 'wireless', 'templateColor', 'placeName');
  event = event.addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'));
  event = event.addColumn('language', 'text', (c) => c.notNull().defaultTo('en'));
  event = event.addColumn('vlNetworkingRouletteTimer', 'text', (c) => c.notNull().defaultTo('00:05:00'));
  event = event.addColumn('cname', 'text', (c) => c.unique());
  event = event.addColumn('accessCode', 'integer');
  event = event.addColumn('latitude', 'double precision');
  event = event.addColumn('longitude', 'double precision');
  event = event.addColumn('budget', 'double precision', (c) => c.notNull().defaultTo(0));
  event = times(event, 'dateCreated', 'dateBegin', 'dateEnd', 'enrollmentBegin', 'enrollmentEnd', 'accessEnd');
  event = ints(event, 'ownerID', 'creatorID', 'capacity', 'invites', 'guestsForMember', 'placeID', 'archived');
  event = ints(event, 'published', 'presential', 'automaticEnrollment', 'sandbox', 'vlJoinBeforeStarts');
  event = ints(event, 'vlJoinAfterEnds', 'templateID', 'isTemplate', 'siblingID');
  event = event.addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1));
  event = event.addColumn('public', 'integer', (c) => c.notNull().defaultTo(1));
  event = event.addUniqueConstraint('event_company_nickname', ['companyID', 'nickname']);
  await event.execute();
  await db.schema.createIndex('event_dates').on('event').columns(['companyID', 'dateBegin']).execute();

  let member = db.schema
    .createTable('eventPerson')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('personID', 'integer', (c) => c.notNull().references('person.personID').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('approved', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('rsvp', 'integer', (c) => c.notNull().defaultTo(-1));
  member = text(member, 'passwordHash', 'origin', 'message');
  member = ints(member, 'paid', 'present', 'private', 'prints');
  member = times(member, 'enrollmentDate', 'updatedDate');
  member = member.addPrimaryKeyConstraint('eventPerson_pk', ['eventID', 'personID']);
  await member.execute();
  await db.schema.createIndex('eventPerson_person').on('eventPerson').column('personID').execute();

  let tag = withId(db, db.schema.createTable('tag'), 'tagID');
  tag = tag.addColumn('companyID', 'integer', (c) => c.notNull().references('company.companyID').onDelete('cascade'));
  tag = tag.addColumn('eventID', 'integer', (c) => c.references('event.eventID').onDelete('cascade'));
  tag = text(tag, 'name', 'color');
  tag = tag.addColumn('kind', 'text', (c) => c.notNull().defaultTo('activity'));
  await tag.execute();

  await db.schema
    .createTable('eventTag')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('tagID', 'integer', (c) => c.notNull().references('tag.tagID').onDelete('cascade'))
    .addPrimaryKeyConstraint('eventTag_pk', ['eventID', 'tagID'])
    .execute();

  let billing = withId(db, db.schema.createTable('billing'), 'billingID');
  billing = billing.addColumn('companyID', 'integer', (c) =>
    c.notNull().references('company.companyID').onDelete('cascade'),
  );
  billing = billing.addColumn('eventID', 'integer', (c) => c.references('event.eventID').onDelete('cascade'));
  billing = billing.addColumn('product', 'text', (c) => c.notNull());
  billing = ints(billing, 'amount', 'sent');
  await billing.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['billing', 'eventTag', 'tag', 'eventPerson', 'event', 'companyTool', 'companyPerson']) {
    await db.schema.dropTable(t).execute();
  }
  for (const t of ['company', 'token', 'person', 'setting']) await db.schema.dropTable(t).execute();
}
