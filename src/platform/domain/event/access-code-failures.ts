import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

// The wrong access codes of an event, for its organizers (event.accessCode.find): when, from which
// network (the address masked: /24 of IPv4, /48 of IPv6 — never the full address, never the code
// tried) and whether a solved challenge came with it. Kept in `setting` rows (one per failure, so
// concurrent writers never lose one), the newest KEEP of each event; wrong codes are throttled, so
// this stays small.

/** Failures kept per event. */
export const KEEP = 100;

export interface AccessCodeFailure {
  /** Unix seconds. */
  time: number;
  address: string;
  /** 1 when the caller had solved a challenge (the event's budget of wrong codes was spent). */
  challenged: 0 | 1;
}

const prefixOf = (eventID: number) => `accessCodeFailure:${eventID}:`;

/** The network of an address: `203.0.113.0/24`, `2001:db8:1::/48`; `unknown` for anything else. */
export function maskAddress(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  const bare = ip.replace(/%.*$/, '');
  if (!/^[0-9a-f:]+$/i.test(bare) || !bare.includes(':')) return 'unknown';
  const [head, tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  if (groups.length !== 8) return 'unknown';
  return `${groups
    .slice(0, 3)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/48`;
}

/** Notes one wrong code, then drops the event's oldest beyond KEEP. */
export async function recordFailure(
  db: Kysely<DB>,
  eventID: number,
  failure: { nowMs: number; clientIp: string; challenged: boolean },
): Promise<void> {
  // The key orders by time (zero-padded milliseconds); the random tail keeps simultaneous ones apart.
  const key = `${prefixOf(eventID)}${String(failure.nowMs).padStart(15, '0')}:${randomBytes(4).toString('hex')}`;
  const row: AccessCodeFailure = {
    time: Math.floor(failure.nowMs / 1000),
    address: maskAddress(failure.clientIp),
    challenged: failure.challenged ? 1 : 0,
  };
  await db
    .insertInto('setting')
    .values({ key, value: JSON.stringify(row) })
    .execute();
  const keys = await keysOf(db, eventID);
  if (keys.length > KEEP) await db.deleteFrom('setting').where('key', 'in', keys.slice(KEEP)).execute();
}

/** The event's failure keys, newest first (sorted here: a store's collation may order `:` differently). */
async function keysOf(db: Kysely<DB>, eventID: number): Promise<string[]> {
  const rows = await db
    .selectFrom('setting')
    .select('key')
    .where('key', 'like', `${prefixOf(eventID)}%`)
    .execute();
  return rows.map((r) => r.key).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** The event's failures, newest first, and how many there are. */
export async function findFailures(
  db: Kysely<DB>,
  eventID: number,
  page: { limit: number; offset: number },
): Promise<{ rows: AccessCodeFailure[]; total: number }> {
  const rows = await db
    .selectFrom('setting')
    .select(['key', 'value'])
    .where('key', 'like', `${prefixOf(eventID)}%`)
    .execute();
  rows.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  return {
    rows: rows.slice(page.offset, page.offset + page.limit).map((r) => JSON.parse(r.value) as AccessCodeFailure),
    total: rows.length,
  };
}
