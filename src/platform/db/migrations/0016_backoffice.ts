import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Back office (issue 17): budgets, ads, case studies.
// `budget`: an expense of an event (spec §2.6 Budget), its price in minor units (cents) so sums never
// drift. `budgetLog`: one row per change of an expense (who, key, old value, new value, when); it keeps
// no foreign key to `budget`, so the history of a removed expense stays readable.
// `ad`: an ad of a sponsor of the event (spec §2.6 Ad); removing the sponsor removes its ads.
// `caseStudy`: an event's case study (spec §2.6 Case study), at most one per event.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const table = (name: string, key: string) => {
    const t = db.schema.createTable(name);
    return pg
      ? t.addColumn(key, 'serial', (c) => c.primaryKey())
      : t.addColumn(key, 'integer', (c) => c.primaryKey().autoIncrement());
  };

  await table('budget', 'budgetID')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // raw, totalLodging, totalFlight, totalShuttle
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('supplier', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo(''))
    // Minor units (cents): 1234.50 is 123450.
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('date', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('budget_event').on('budget').columns(['eventID', 'date']).execute();

  await table('budgetLog', 'budgetLogID')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('budgetID', 'integer', (c) => c.notNull())
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('oldValue', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('newValue', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('budgetLog_budget').on('budgetLog').columns(['eventID', 'budgetID']).execute();

  await table('ad', 'adID')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('sponsorID', 'integer', (c) => c.notNull().references('sponsor.sponsorID').onDelete('cascade'))
    .addColumn('image', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('link', 'text', (c) => c.notNull().defaultTo(''))
    // Relative weight among the ads shown in the same place; 0: not shown.
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('main', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('splash', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('ad_event').on('ad').column('eventID').execute();

  await table('caseStudy', 'caseID')
    .addColumn('eventID', 'integer', (c) => c.notNull().unique().references('event.eventID').onDelete('cascade'))
    .addColumn('attendees', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('impressions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('headline', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('challenges', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('solution', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('results', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('videoKey', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('slideKey', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('caseStudy').execute();
  await db.schema.dropTable('ad').execute();
  await db.schema.dropTable('budgetLog').execute();
  await db.schema.dropTable('budget').execute();
}
