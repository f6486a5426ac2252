import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

// One-click unsubscribe (RFC 8058): every bulk message carries
//   List-Unsubscribe: <…?action=event.email.unsubscribe&eventID=…&email=…&sig=…>
//   List-Unsubscribe-Post: List-Unsubscribe=One-Click
// The signature is an HMAC of the event and the address with a key the store makes once (setting
// `mailUnsubscribeKey`), so the link works without a session and cannot be forged for another address.

const KEY = 'mailUnsubscribeKey';
const kept = new WeakMap<Kysely<DB>, Promise<Buffer>>();

function keyOf(db: Kysely<DB>): Promise<Buffer> {
  let key = kept.get(db);
  if (!key) {
    key = (async () => {
      await db
        .insertInto('setting')
        .values({ key: KEY, value: randomBytes(32).toString('base64url') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('setting').select('value').where('key', '=', KEY).executeTakeFirstOrThrow();
      return Buffer.from(row.value, 'base64url');
    })();
    key.catch(() => kept.delete(db));
    kept.set(db, key);
  }
  return key;
}

const mac = (key: Buffer, eventID: number, email: string) =>
  createHmac('sha256', key).update(`${eventID}:${email.toLowerCase()}`).digest('base64url');

/** The one-click link of an address in an event, on the API at `apiUrl`. */
export async function unsubscribeLink(db: Kysely<DB>, apiUrl: string, eventID: number, email: string) {
  const sig = mac(await keyOf(db), eventID, email);
  const q = new URLSearchParams({ action: 'event.email.unsubscribe', eventID: String(eventID), email, sig });
  return `${apiUrl.replace(/\/+$/, '')}/?${q}`;
}

const openMac = (key: Buffer, emailLogID: number) =>
  createHmac('sha256', key).update(`open:${emailLogID}`).digest('base64url');

/** The open-tracking pixel's address of one message (event.email.open). */
export async function openLink(db: Kysely<DB>, apiUrl: string, emailLogID: number) {
  const sig = openMac(await keyOf(db), emailLogID);
  const q = new URLSearchParams({ action: 'event.email.open', emailLogID: String(emailLogID), sig });
  return `${apiUrl.replace(/\/+$/, '')}/?${q}`;
}

/** Whether `sig` is the pixel's signature of the message. */
export async function validOpenSignature(db: Kysely<DB>, emailLogID: number, sig: string) {
  const want = Buffer.from(openMac(await keyOf(db), emailLogID));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Whether `sig` is the link's signature of the address in the event. */
export async function validSignature(db: Kysely<DB>, eventID: number, email: string, sig: string) {
  const want = Buffer.from(mac(await keyOf(db), eventID, email));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want);
}
