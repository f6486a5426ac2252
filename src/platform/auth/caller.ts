import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { hashToken } from './secrets.ts';

/** The person behind a valid token, and the scope the token was issued for (spec §5.3). */
export interface Caller {
  readonly personID: number;
  readonly scope: 'system' | 'event';
  /** The event of an event-scope token; 0 for system scope. */
  readonly targetID: number;
  /** A platform operator (created with `podium admin create`); only with a system-scope token. */
  readonly operator: boolean;
  /** The token's hash as stored (never the token): whether it still holds can be asked again (callerOfHash). */
  readonly tokenHash: string;
  /** When the token expires (Unix seconds). */
  readonly expiresAt: number;
}

export const resolveCaller = (db: Kysely<DB>, token: string, now: number): Promise<Caller | undefined> =>
  callerOfHash(db, hashToken(token), now);

/** The caller of the token stored as `tokenHash`, while it is valid (not revoked, not expired). */
export async function callerOfHash(db: Kysely<DB>, tokenHash: string, now: number): Promise<Caller | undefined> {
  const row = await db
    .selectFrom('token')
    .innerJoin('person', 'person.personID', 'token.personID')
    .select(['token.personID', 'token.scope', 'token.targetID', 'token.expiresAt', 'person.operator'])
    .where('token.tokenHash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.expiresAt <= now) return undefined;
  return {
    personID: row.personID,
    scope: row.scope,
    targetID: row.targetID,
    operator: row.scope === 'system' && row.operator === 1,
    tokenHash,
    expiresAt: row.expiresAt,
  };
}

/**
 * The person who asked for a job (a report, a bulk daemon), with the scope they asked with, as the job
 * runs it later: no token behind it (a hash no token has), operator only if still one.
 */
export async function askerOf(
  db: Kysely<DB>,
  asked: { readonly personID: number; readonly scope: 'system' | 'event'; readonly targetID: number },
): Promise<Caller> {
  const person = await db
    .selectFrom('person')
    .select('operator')
    .where('personID', '=', asked.personID)
    .executeTakeFirst();
  return {
    personID: asked.personID,
    scope: asked.scope,
    targetID: asked.targetID,
    operator: asked.scope === 'system' && person?.operator === 1,
    tokenHash: '',
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
}
