import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { chainWire } from '../../../shared/wire/chain.ts';
import { defineResource, field } from '../crud/resource.ts';
import { relationName } from '../relation/common.ts';

export const CONSTRAINT_MAX = 1000;

/** The chain's constraint: how many of its activities one person may be enrolled in. */
export const constraintSchema = z
  .string()
  .regex(/^\d{1,4}$/, `must be an integer from 1 to ${CONSTRAINT_MAX}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= CONSTRAINT_MAX, `must be an integer from 1 to ${CONSTRAINT_MAX}`);

/**
 * Adds `activityCount` and `activities` ({activityID, name}, by dateBegin) to chain rows: one query for
 * the activities of all the rows.
 */
async function addActivities(db: Kysely<DB>, rows: Record<string, any>[]): Promise<void> {
  if (rows.length === 0) return;
  const items = await db
    .selectFrom('activityChain')
    .innerJoin('activity', 'activity.activityID', 'activityChain.activityID')
    .select(['activityChain.chainID', 'activity.activityID', 'activity.name'])
    .where(
      'activityChain.chainID',
      'in',
      rows.map((r) => r.chainID as number),
    )
    .orderBy('activity.dateBegin')
    .orderBy('activity.activityID')
    .execute();
  for (const row of rows) {
    row.activities = items
      .filter((i) => i.chainID === row.chainID)
      .map(({ activityID, name }) => ({ activityID, name }));
    row.activityCount = row.activities.length;
  }
}

/**
 * A chain of activities (spec §2.5: chainID, eventID, name, constraint), declared once, with its
 * activities. `constraint` (Podium's design of the spec's "optional constraint rule") is how many of
 * them one person may be enrolled in, default 1 (spec §4.5: "a user cannot register in more than one
 * activity of the same chain"); it is stored as maxPerPerson. Listed by name, then chainID.
 */
export const CHAIN = defineResource({
  table: 'chain',
  id: 'chainID',
  what: 'chain',
  wire: chainWire,
  fields: {
    name: field(relationName, 'chain name', { required: true }),
    constraint: field(
      constraintSchema,
      `activities of the chain one person may be enrolled in (1 to ${CONSTRAINT_MAX}, default 1)`,
      { column: 'maxPerPerson', default: 1 },
    ),
  },
  derived: { keys: ['activityCount', 'activities'], add: addActivities },
  order: ['name', 'chainID'],
});

/** Chain columns as the API names them, for a query the caller narrows (activity.chain.find). */
export function chainQuery(db: Kysely<DB>) {
  return db
    .selectFrom('chain')
    .select(['chain.chainID', 'chain.eventID', 'chain.name', 'chain.maxPerPerson as constraint']);
}

export type ChainRow = Awaited<ReturnType<ReturnType<typeof chainQuery>['execute']>>[number];

/** Chain records of rows of chainQuery: each with its activities. */
export async function chainRecords(db: Kysely<DB>, rows: ChainRow[]): Promise<Record<string, unknown>[]> {
  await addActivities(db, rows);
  return rows;
}
