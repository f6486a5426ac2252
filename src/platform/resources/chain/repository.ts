import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Chain columns as the API names them: the stored maxPerPerson is the chain's `constraint`. */
export function chainQuery(db: Kysely<DB>) {
  return db
    .selectFrom('chain')
    .select(['chain.chainID', 'chain.eventID', 'chain.name', 'chain.maxPerPerson as constraint']);
}

export type ChainRow = Awaited<ReturnType<ReturnType<typeof chainQuery>['execute']>>[number];

/**
 * Chain records: the chain (spec §2.5: chainID, eventID, name, constraint) with `activityCount` and
 * `activities` ({activityID, name}, by dateBegin). One query for the activities of all the rows.
 */
export async function chainRecords(db: Kysely<DB>, rows: readonly ChainRow[]): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const items = await db
    .selectFrom('activityChain')
    .innerJoin('activity', 'activity.activityID', 'activityChain.activityID')
    .select(['activityChain.chainID', 'activity.activityID', 'activity.name'])
    .where(
      'activityChain.chainID',
      'in',
      rows.map((r) => r.chainID),
    )
    .orderBy('activity.dateBegin')
    .orderBy('activity.activityID')
    .execute();
  return rows.map((r) => {
    const activities = items
      .filter((i) => i.chainID === r.chainID)
      .map(({ activityID, name }) => ({ activityID, name }));
    return { ...r, activityCount: activities.length, activities };
  });
}

/** A chain's record (empty when there is no such chain). */
export const chainByID = async (db: Kysely<DB>, chainID: number) =>
  chainRecords(db, await chainQuery(db).where('chain.chainID', '=', chainID).execute());

export async function createChain(db: Kysely<DB>, eventID: number, name: string, maxPerPerson: number) {
  const { chainID } = await db
    .insertInto('chain')
    .values({ eventID, name, maxPerPerson })
    .returning('chainID')
    .executeTakeFirstOrThrow();
  return chainID;
}

/** Removes a chain; its activities stay, unchained. */
export async function removeChain(db: Kysely<DB>, chainID: number): Promise<void> {
  await db.deleteFrom('activityChain').where('chainID', '=', chainID).execute();
  await db.deleteFrom('chain').where('chainID', '=', chainID).execute();
}
