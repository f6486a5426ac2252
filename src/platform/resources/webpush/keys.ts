import type { Kysely } from 'kysely';
import { createRequire } from 'node:module';
import type WebPush from 'web-push';
import type { DB } from '../../db/schema.ts';

// The platform's VAPID key pair (RFC 8292): browsers subscribe with its public key, and every send is
// signed with its private key, so a push service delivers only what this platform sends. Made by
// web-push on first start and kept in `setting`, shared by every process of the store; never logged.
// The first process to ask writes it, the others read the same row.

export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

const KEY = 'vapidKeys';

let loaded: typeof WebPush | undefined;
/** web-push, loaded at its first use (not by every process that imports this: docs/api/reports.md "Memory"). */
export const webpushLib = (): typeof WebPush =>
  (loaded ??= createRequire(import.meta.url)('web-push') as typeof WebPush);
const kept = new WeakMap<Kysely<DB>, Promise<VapidKeys>>();

/** The store's VAPID keys, made once. */
export function vapidKeys(db: Kysely<DB>): Promise<VapidKeys> {
  let keys = kept.get(db);
  if (!keys) {
    keys = (async () => {
      const made = webpushLib().generateVAPIDKeys();
      await db
        .insertInto('setting')
        .values({ key: KEY, value: JSON.stringify(made) })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('setting').select('value').where('key', '=', KEY).executeTakeFirstOrThrow();
      const { publicKey, privateKey } = JSON.parse(row.value) as VapidKeys;
      return { publicKey, privateKey };
    })();
    keys.catch(() => kept.delete(db));
    kept.set(db, keys);
  }
  return keys;
}
