import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import pg from 'pg';
import { NodeSqliteDialect } from './sqlite.ts';
import type { DB } from './schema.ts';
import * as core from './migrations/0001_core.ts';
import * as content from './migrations/0002_content.ts';
import * as people from './migrations/0003_people.ts';
import * as enrollmentID from './migrations/0004_enrollment_id.ts';
import * as changeLog from './migrations/0005_change_log.ts';
import * as jobs from './migrations/0006_jobs.ts';
import * as programChange from './migrations/0007_program_change.ts';
import * as webPush from './migrations/0008_web_push.ts';
import * as webhooks from './migrations/0009_webhooks.ts';
import * as email from './migrations/0010_email.ts';
import * as checkin from './migrations/0012_checkin.ts';
import * as coupons from './migrations/0013_coupons.ts';
import * as applicants from './migrations/0014_applicants.ts';
import * as social from './migrations/0015_social.ts';
import * as backoffice from './migrations/0016_backoffice.ts';
import * as reports from './migrations/0017_reports.ts';
import * as senders from './migrations/0018_senders.ts';
import * as beacons from './migrations/0019_beacons.ts';
import * as bookings from './migrations/0020_bookings.ts';
import * as crmfeed from './migrations/0021_crmfeed.ts';
import * as daemons from './migrations/0022_daemons.ts';
import * as searchIndex from './migrations/0025_search_index.ts';
import * as searchPending from './migrations/0027_search_pending.ts';
import * as emailBilling from './migrations/0028_email_billing.ts';
import * as eventSmsText from './migrations/0029_event_sms_text.ts';
import * as confirmFeed from './migrations/0030_confirm_feed.ts';
import * as sanityFeed from './migrations/0031_sanity_feed.ts';
import * as changeCompany from './migrations/0032_change_company.ts';
import * as applicantLanguage from './migrations/0033_applicant_language.ts';
import * as cancelledCodes from './migrations/0034_cancelled_codes.ts';
import * as cnameCheck from './migrations/0035_cname_check.ts';

export type Store = { db: Kysely<DB>; kind: 'sqlite' | 'postgres' };

// Listed by hand so the set of migrations is explicit and ordered; never edit one that has landed.
const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_content': content,
  '0003_people': people,
  '0004_enrollment_id': enrollmentID,
  '0005_change_log': changeLog,
  '0006_jobs': jobs,
  '0007_program_change': programChange,
  '0008_web_push': webPush,
  '0009_webhooks': webhooks,
  '0010_email': email,
  '0012_checkin': checkin,
  '0013_coupons': coupons,
  '0014_applicants': applicants,
  '0015_social': social,
  '0016_backoffice': backoffice,
  '0017_reports': reports,
  '0018_senders': senders,
  '0019_beacons': beacons,
  '0020_bookings': bookings,
  '0021_crmfeed': crmfeed,
  '0022_daemons': daemons,
  '0025_search_index': searchIndex,
  '0027_search_pending': searchPending,
  '0028_email_billing': emailBilling,
  '0029_event_sms_text': eventSmsText,
  '0030_confirm_feed': confirmFeed,
  '0031_sanity_feed': sanityFeed,
  '0032_change_company': changeCompany,
  '0033_applicant_language': applicantLanguage,
  '0034_cancelled_codes': cancelledCodes,
  '0035_cname_check': cnameCheck,
};

/**
 * Opens the store named by a DATABASE_URL (file:… or postgres://…). `sqliteCheckpointMs`: on SQLite,
 * checkpoints on a thread of their own every that many ms (the servers' SQLITE_CHECKPOINT_MS); 0, the
 * default, leaves them to SQLite (short-lived commands).
 */
export function openStore(url: string, { sqliteCheckpointMs = 0 }: { sqliteCheckpointMs?: number } = {}): Store {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const dialect = new NodeSqliteDialect(path, { checkpointMs: sqliteCheckpointMs });
    return { db: new Kysely<DB>({ dialect }), kind: 'sqlite' };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // int8 (COUNT, bigint timestamps) as numbers: Unix seconds and counts fit easily.
    types: { getTypeParser: (oid, format) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) },
  });
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), kind: 'postgres' };
}

/** Whether a store (or a transaction of it) is PostgreSQL: the few places whose SQL differs ask this. */
export const isPostgres = (db: Kysely<DB>): boolean => db.getExecutor().adapter.constructor.name === 'PostgresAdapter';

/**
 * Brings the store's schema to the latest migration; answers how many it applied (0: it was up to
 * date), so `podium migrate` can say what it did. Throws with the failing migration's name.
 */
export async function migrate(db: Kysely<DB>): Promise<number> {
  // On PostgreSQL the bookkeeping tables live in the connection's current schema (search_path), so
  // several stores can share one database, one schema each.
  const isPg = isPostgres(db);
  const schema = isPg ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    // A retry below follows an attempt in which no migration ran, so this attempt's count is the count.
    if (!error) return results?.filter((r) => r.status === 'Success').length ?? 0;
    // Kysely's migrator looks for its table through the whole catalog; when another store of the same
    // database creates or drops its schema meanwhile, PostgreSQL answers 3F000 naming that other schema,
    // or 42P01 / 42703 for a table or column of it half made or half gone (CI saw 42703 on the other
    // store's kysely_migration_lock). No migration ran: look again, a little later.
    const e = error as { code?: string; message?: string };
    const noMigrationFailed = !results?.some((r) => r.status === 'Error');
    const ownSchemaGone = e.code === '3F000' && String(e.message).includes(`"${schema}"`);
    const catalogRace =
      isPg && noMigrationFailed && !ownSchemaGone && ['3F000', '42P01', '42703'].includes(e.code ?? '');
    if (catalogRace && attempt < 5) {
      await new Promise((r) => setTimeout(r, 20 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
