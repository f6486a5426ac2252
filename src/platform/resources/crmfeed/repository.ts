import type { Kysely, Selectable } from 'kysely';
import type { CrmLinkTable, DB } from '../../db/schema.ts';
import { COMPANY_LEVEL } from '../../auth/levels.ts';

// The store of CRM links (migration 0021, docs/api/crmfeed.md): one row per linked event, with the
// admins' choices and the sync's progress. Every progress update of the sync job is compare-and-set on
// the run (and the cursor), so a job of an older run, or one that lost its lease, changes nothing.

export type CrmLinkRow = Selectable<CrmLinkTable>;

export function linkOf(db: Kysely<DB>, eventID: number): Promise<CrmLinkRow | undefined> {
  return db.selectFrom('crmLink').selectAll().where('eventID', '=', eventID).executeTakeFirst();
}

/** Links the event, or replaces its token (the community, group and sync state stay). */
export async function saveLink(
  db: Kysely<DB>,
  v: Pick<CrmLinkRow, 'eventID' | 'companyID' | 'token' | 'tokenHint' | 'personID' | 'linkedAt'>,
): Promise<CrmLinkRow> {
  await db
    .insertInto('crmLink')
    .values(v)
    .onConflict((oc) =>
      oc
        .column('eventID')
        .doUpdateSet({ token: v.token, tokenHint: v.tokenHint, personID: v.personID, linkedAt: v.linkedAt }),
    )
    .execute();
  return (await linkOf(db, v.eventID))!;
}

export async function removeLink(db: Kysely<DB>, eventID: number): Promise<boolean> {
  const r = await db.deleteFrom('crmLink').where('eventID', '=', eventID).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export type Choice = Partial<Pick<CrmLinkRow, 'communityId' | 'communityUrl' | 'communityName' | 'groupId' | 'groupName'>>; // prettier-ignore

/** Stores the admins' choice of community or group; the row as it is now, undefined when not linked. */
export async function choose(db: Kysely<DB>, eventID: number, choice: Choice): Promise<CrmLinkRow | undefined> {
  const r = await db.updateTable('crmLink').set(choice).where('eventID', '=', eventID).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? linkOf(db, eventID) : undefined;
}

/** The companies `personID` administers (an operator: every company with a linked event). */
export async function administered(db: Kysely<DB>, personID: number, operator: boolean): Promise<number[]> {
  const rows = operator
    ? await db.selectFrom('crmLink').select('companyID').distinct().execute()
    : await db
        .selectFrom('companyPerson')
        .select('companyID')
        .where('personID', '=', personID)
        .where('level', '=', COMPANY_LEVEL.ADMIN)
        .execute();
  return rows.map((r) => r.companyID);
}

/** The linked events of these companies, by company then event. */
export async function linkedEvents(db: Kysely<DB>, companyIDs: number[]) {
  if (companyIDs.length === 0) return [];
  return db
    .selectFrom('crmLink')
    .select(['companyID', 'eventID'])
    .where('companyID', 'in', companyIDs)
    .orderBy('companyID')
    .orderBy('eventID')
    .execute();
}

/** Starts a new sync run of the event (an older run's job stops at its next step); answers its number. */
export async function startRun(db: Kysely<DB>, eventID: number, now: number): Promise<number> {
  await db
    .updateTable('crmLink')
    .set((eb) => ({
      syncRun: eb('syncRun', '+', 1),
      syncStatus: 'queued',
      syncCursor: 0,
      syncPushed: 0,
      syncTotal: 0,
      syncQueuedAt: now,
      syncFinishedAt: 0,
      syncError: '',
    }))
    .where('eventID', '=', eventID)
    .execute();
  return (await linkOf(db, eventID))!.syncRun;
}

/** The run is under way with `total` people to push; false when it is no longer the event's run. */
export async function markRunning(db: Kysely<DB>, eventID: number, run: number, total: number): Promise<boolean> {
  const r = await db
    .updateTable('crmLink')
    .set({ syncStatus: 'running', syncTotal: total })
    .where('eventID', '=', eventID)
    .where('syncRun', '=', run)
    .where('syncStatus', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The provider acknowledged the people after `from` up to `to`: the cursor moves, compare-and-set. */
export async function advance(db: Kysely<DB>, eventID: number, run: number, from: number, to: number, n: number) {
  const r = await db
    .updateTable('crmLink')
    .set((eb) => ({ syncCursor: to, syncPushed: eb('syncPushed', '+', n) }))
    .where('eventID', '=', eventID)
    .where('syncRun', '=', run)
    .where('syncCursor', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Ends the run as done or failed (with its error line); answers the link's company when it did, undefined
 * when the run was no longer the event's, or already ended (a newer run, the link removed).
 */
export async function finishRun(
  db: Kysely<DB>,
  eventID: number,
  run: number,
  status: 'done' | 'failed',
  error: string,
  now: number,
): Promise<number | undefined> {
  const r = await db
    .updateTable('crmLink')
    .set({ syncStatus: status, syncError: error, syncFinishedAt: now })
    .where('eventID', '=', eventID)
    .where('syncRun', '=', run)
    .where('syncStatus', 'in', ['queued', 'running'])
    .returning('companyID')
    .executeTakeFirst();
  return r?.companyID;
}

/** Keeps a failed attempt's line while the job will be tried again. */
export async function noteError(db: Kysely<DB>, eventID: number, run: number, error: string): Promise<void> {
  await db
    .updateTable('crmLink')
    .set({ syncError: error })
    .where('eventID', '=', eventID)
    .where('syncRun', '=', run)
    .execute();
}

export async function eventName(db: Kysely<DB>, eventID: number): Promise<string> {
  const row = await db.selectFrom('event').select('name').where('eventID', '=', eventID).executeTakeFirst();
  return row?.name ?? '';
}

export async function peopleCount(db: Kysely<DB>, eventID: number): Promise<number> {
  const row = await db
    .selectFrom('eventPerson')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('eventID', '=', eventID)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The event's people after `after` (by personID), `limit` of them, as the event knows them: the profile
 * they gave to this event (eventPerson), never the platform's person row nor another event's profile.
 */
export function peopleAfter(db: Kysely<DB>, eventID: number, after: number, limit: number) {
  return db
    .selectFrom('eventPerson')
    .select([
      'personID',
      'email',
      'firstName',
      'lastName',
      'name',
      'telephone',
      'company',
      'role',
      'headline',
      'city',
      'website',
      'language',
      'approved',
      'paid',
      'present',
      'enrollmentDate',
    ]) // prettier-ignore
    .where('eventID', '=', eventID)
    .where('personID', '>', after)
    .orderBy('personID')
    .limit(limit)
    .execute();
}
