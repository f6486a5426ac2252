import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ApiError, notFound } from '../errors.ts';
import { eventAccess } from './access.ts';
import { eventGateByID } from '../resources/event/repository.ts';
import type { Context } from '../kernel/table.ts';

/** How long an unlocked private event stays unlocked for a browser (the site and widgets keep the grant). */
export const GRANT_TTL_SECONDS = 7 * 86400;

const secrets = new WeakMap<Kysely<DB>, Map<string, Promise<Buffer>>>();

/**
 * A signing secret of the store (grants, the access-code challenges): made once under `key` in
 * `setting`, shared by every process, never logged. The first process to ask writes it; the others
 * read the same row.
 */
export function storedSecret(db: Kysely<DB>, key: string): Promise<Buffer> {
  let ofStore = secrets.get(db);
  if (!ofStore) secrets.set(db, (ofStore = new Map()));
  let s = ofStore.get(key);
  if (!s) {
    s = (async () => {
      await db
        .insertInto('setting')
        .values({ key, value: randomBytes(32).toString('base64url') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('setting').select('value').where('key', '=', key).executeTakeFirstOrThrow();
      return Buffer.from(row.value, 'base64url');
    })();
    s.catch(() => ofStore.delete(key));
    ofStore.set(key, s);
  }
  return s;
}

const secretOf = (db: Kysely<DB>) => storedSecret(db, 'grantSecret');

const sign = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/**
 * A grant proves that the right access code of a private event was given (event.checkAccessCode),
 * without repeating the code, so the throttle on wrong codes cannot be bypassed through other
 * operations. `<eventID>.<expires>.<hmac>`; stateless, so any process of the platform verifies it.
 */
export async function issueGrant(db: Kysely<DB>, eventID: number, now: number): Promise<string> {
  const payload = `${eventID}.${now + GRANT_TTL_SECONDS}`;
  return `${payload}.${sign(await secretOf(db), payload)}`;
}

export async function verifyGrant(db: Kysely<DB>, grant: string, eventID: number, now: number): Promise<boolean> {
  const [id, expires, mac] = grant.split('.');
  if (Number(id) !== eventID || !(Number(expires) > now) || !mac) return false;
  const expected = Buffer.from(sign(await secretOf(db), `${id}.${expires}`));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** When a grant runs out (Unix seconds), as it says; verifyGrant tells whether it is genuine. */
export const grantExpiry = (grant: string): number => Number(grant.split('.')[1]);

/** The `grant` parameter of public reads of a private event (Podium extension). */
export const grantSchema = z.string().max(200, 'must be at most 200 characters');

/**
 * The event a public operation reads: it must be visible and not a template (else 404, as if it did
 * not exist). A private (public=0) event also needs a valid grant or a token of someone related to
 * it, else 403: its gate is public already (event.get), the content behind it is not.
 */
export async function readableEvent(ctx: Context, eventID: number, grant: string | undefined) {
  const row = await eventGateByID(ctx.db, eventID);
  if (!row) throw notFound('event');
  const access = ctx.caller ? await eventAccess(ctx.db, ctx.caller, eventID) : undefined;
  if (access?.related) return { event: row, access };
  if (row.visible !== 1 || row.isTemplate === 1) throw notFound('event');
  if (row.public !== 1 && !(grant !== undefined && (await verifyGrant(ctx.db, grant, eventID, ctx.now))))
    throw new ApiError(403, 'this event is private: send the grant of event.checkAccessCode');
  return { event: row, access };
}
