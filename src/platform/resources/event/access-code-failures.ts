import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ipv6Groups } from '../../limits/address.ts';

// The wrong access codes of an event, for its organizers (event.accessCode.find): when, from which
// network (the address masked: /24 of IPv4, /48 of IPv6 — never the full address, never the code
// tried) and whether a solved challenge came with it. The newest KEEP of each event are kept; wrong
// codes are throttled, so this stays small.

/** Failures kept per event. */
export const KEEP = 100;

export interface AccessCodeFailure {
  /** Unix seconds. */
  time: number;
  address: string;
  /** 1 when the caller had solved a challenge (the event's budget of wrong codes was spent). */
  challenged: 0 | 1;
}

/** The network of an address: `203.0.113.0/24`, `2001:db8:1::/48`; `unknown` for anything else. */
export function maskAddress(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 3).join(':')}::/48` : 'unknown';
}

/** Notes one wrong code, then drops the event's oldest beyond KEEP. */
export async function recordFailure(
  db: Kysely<DB>,
  eventID: number,
  failure: { nowMs: number; clientIp: string; challenged: boolean },
): Promise<void> {
  await db
    .insertInto('accessCodeFailure')
    .values({
      eventID,
      time: Math.floor(failure.nowMs / 1000),
      address: maskAddress(failure.clientIp),
      challenged: failure.challenged ? 1 : 0,
    })
    .execute();
  const oldestKept = await db
    .selectFrom('accessCodeFailure')
    .select('failureID')
    .where('eventID', '=', eventID)
    .orderBy('failureID', 'desc')
    .offset(KEEP - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept)
    await db
      .deleteFrom('accessCodeFailure')
      .where('eventID', '=', eventID)
      .where('failureID', '<', oldestKept.failureID)
      .execute();
}

/** The event's failures, newest first, and how many there are. */
export async function findFailures(
  db: Kysely<DB>,
  eventID: number,
  page: { limit: number; offset: number },
): Promise<{ rows: AccessCodeFailure[]; total: number }> {
  const of = db.selectFrom('accessCodeFailure').where('eventID', '=', eventID);
  const [rows, counted] = await Promise.all([
    of
      .select(['time', 'address', 'challenged'])
      .orderBy('failureID', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    of.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, challenged: r.challenged ? 1 : 0 })), total: Number(counted.n) };
}
