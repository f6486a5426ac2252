import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { badRequest, conflict } from '../../errors.ts';
import { SELECT_TYPES } from './fields.ts';

/** 409 when another field of the event already has this API Field key. */
export async function checkApiKeyFree(db: Kysely<DB>, eventID: number, key: string, feedbackID = 0) {
  const taken = await db
    .selectFrom('feedback')
    .select('feedbackID')
    .where('eventID', '=', eventID)
    .where('apiKey', '=', key)
    .where('feedbackID', '!=', feedbackID)
    .executeTakeFirst();
  if (taken) throw conflict(`apiKey ${key} is already used by another field of this event`);
}

/** A select or multiselect field needs options to choose from. */
export function checkOptions(type: string, options: readonly string[]) {
  if (SELECT_TYPES.has(type) && options.length === 0) throw badRequest(`options cannot be empty for type ${type}`);
}

/** The position after the last field of the event. */
export async function nextPosition(db: Kysely<DB>, eventID: number): Promise<number> {
  const row = await db
    .selectFrom('feedback')
    .select(sql<number>`coalesce(max(${sql.ref('position')}), 0)`.as('last'))
    .where('eventID', '=', eventID)
    .executeTakeFirstOrThrow();
  return Number(row.last) + 1;
}
