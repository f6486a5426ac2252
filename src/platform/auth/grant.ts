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
 * The hmac covers the event's access code as it was: a new code (an organizer's answer to a leaked
 * one) ends every grant given for the old, as if they had expired. `accessCode`: the event's, when the
 * caller has read its row already (else it is read here).
 */
export async function issueGrant(
  db: Kysely<DB>,
  eventID: number,
  now: number,
  accessCode?: number | null,
): Promise<string> {
  const payload = `${eventID}.${now + GRANT_TTL_SECONDS}`;
  return `${payload}.${sign(await secretOf(db), `${payload}${await codePart(db, eventID, accessCode)}`)}`;
}

/** What a grant signs of the event's access code: `.c<code>` (`.c` without one). */
async function codePart(db: Kysely<DB>, eventID: number, accessCode: number | null | undefined): Promise<string> {
  const code =
    accessCode !== undefined
      ? accessCode
      : (await db.selectFrom('event').select('accessCode').where('eventID', '=', eventID).executeTakeFirst())
          ?.accessCode;
  return `.c${code ?? ''}`;
}

/**
 * A preview grant (event.preview) shows an event's site as the public will see it, to whoever opens the
 * link, before it is visible (or behind its access code): its admins' look before publishing. The same
 * shape as a grant, signed over other words, so the site keeps and sends it as it does any grant; it
 * lasts an hour.
 */
export const PREVIEW_TTL_SECONDS = 3600;

const PREVIEW = 'preview.';

/** A registration sent from a preview of a hidden event. */
export const PREVIEW_REFUSED = 'this event is not visible yet: it takes registrations once it is (visible=1)';

export async function issuePreview(db: Kysely<DB>, eventID: number, now: number): Promise<string> {
  const payload = `${eventID}.${now + PREVIEW_TTL_SECONDS}`;
  return `${payload}.${sign(await secretOf(db), PREVIEW + payload)}`;
}

/**
 * What a grant opens of `eventID`: `access` (the access code was given), `preview`, or nothing.
 * `accessCode` as issueGrant's: the callers that read the event pass it, sparing a read per call.
 */
export async function grantKind(
  db: Kysely<DB>,
  grant: string,
  eventID: number,
  now: number,
  accessCode?: number | null,
): Promise<'access' | 'preview' | undefined> {
  const [id, expires, mac] = grant.split('.');
  if (Number(id) !== eventID || !(Number(expires) > now) || !mac) return undefined;
  const secret = await secretOf(db);
  const given = Buffer.from(mac);
  const matches = (signed: string) => {
    const expected = Buffer.from(sign(secret, signed));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (matches(`${id}.${expires}${await codePart(db, eventID, accessCode)}`)) return 'access';
  return matches(`${PREVIEW}${id}.${expires}`) ? 'preview' : undefined;
}

/** When a grant runs out (Unix seconds), as it says; grantKind tells whether it is genuine. */
export const grantExpiry = (grant: string): number => Number(grant.split('.')[1]);

/** The `grant` parameter of public reads of a private event (Podium extension). */
export const grantSchema = z.string().max(200, 'must be at most 200 characters');

/**
 * The event a public operation reads: it must be visible and not a template (else 404, as if it did
 * not exist) — or, hidden, opened by a preview grant. A private (public=0) event also needs a valid
 * grant or a token of someone related to it, else 403: its gate is public already (event.get), the
 * content behind it is not.
 */
export async function readableEvent(
  ctx: Context,
  eventID: number,
  grant: string | undefined,
  /** false: a preview's grant opens nothing here (streams and subscriptions: a preview is for looking). */
  o: { preview?: boolean } = {},
) {
  const row = await eventGateByID(ctx.db, eventID);
  if (!row) throw notFound('event');
  const access = ctx.caller ? await eventAccess(ctx.db, ctx.caller, eventID) : undefined;
  if (access?.related) return { event: row, access };
  if (row.isTemplate === 1) throw notFound('event');
  const kind = grant === undefined ? undefined : await grantKind(ctx.db, grant, eventID, ctx.now, row.accessCode);
  const shown = o.preview === false && kind === 'preview' ? undefined : kind;
  // A hidden event opens only to its admins' preview.
  if (row.visible !== 1 && shown !== 'preview') throw notFound('event');
  if (row.public !== 1 && shown === undefined)
    throw new ApiError(403, 'this event is private: send the grant of event.checkAccessCode');
  return { event: row, access };
}
