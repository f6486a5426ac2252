import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { CheckScan } from '../../../shared/wire/checklog.ts';
import { ApiError, conflict } from '../../errors.ts';
import {
  claimScan,
  firstEntry,
  holderOf,
  logByNonce,
  logByScanKey,
  markPresent,
  move,
  settleScan,
  type ChecklogRow,
  type Direction,
  type Holder,
  wasCancelled,
} from './repository.ts';

// One scan at a door (checklog.checkIn / checkOut): who the code names, and what the door does —
// decided once per scan. A device that lost its connection sends its queue again, so a scan already
// logged (the same code, date, door and direction, or the same nonce) gets its first answer again.

export interface Scan {
  eventID: number;
  /** 0: the event's entrance. */
  activityID: number;
  code: string;
  /** The scan's time on the device (Unix seconds). */
  date: number;
  direction: Direction;
  nonce?: string;
  /** A person already inside may be scanned in again (a door without exit scans). */
  reentry: boolean;
  /** The person whose token scanned. */
  deviceID: number;
  nowMs: number;
}

export interface ScanDeps {
  /** Counts an unknown code against the device; throws 429 past the limit. */
  unknownCode(): Promise<void>;
}

export async function scan(db: Kysely<DB>, s: Scan, deps: ScanDeps): Promise<CheckScan> {
  const holder = await holderOf(db, s.eventID, s.code);
  if (!holder) {
    // A real ticket whose registration was cancelled: said so, and not counted as a guess.
    if (await wasCancelled(db, s.eventID, s.code)) return answer(s, undefined, { result: 'refused', reason: 'cancelled' }, false); // prettier-ignore
    await deps.unknownCode();
    return answer(s, undefined, { result: 'refused', reason: 'unknown code' }, false);
  }
  const door = { eventID: s.eventID, activityID: s.activityID, personID: holder.personID };
  const scanKey = `${s.direction}:${s.activityID}:${holder.personID}:${s.date}`;
  const same = (row: ChecklogRow) =>
    row.personID === holder.personID && row.activityID === s.activityID && row.direction === s.direction;
  const checklogID = await claimScan(db, {
    eventID: s.eventID,
    activityID: s.activityID,
    personID: holder.personID,
    direction: s.direction,
    date: s.date,
    nonce: s.nonce ?? null,
    scanKey,
    deviceID: s.deviceID,
    createdAt: s.nowMs,
  });
  if (checklogID === undefined) {
    // Logged by an earlier (or concurrent, now committed) call: by its nonce (whatever date it
    // carries now), else by its scanKey.
    const prior =
      (s.nonce === undefined ? undefined : await logByNonce(db, s.eventID, s.nonce)) ??
      (await logByScanKey(db, s.eventID, scanKey));
    if (!prior) throw new ApiError(503, 'the scan is being recorded by another call, send it again');
    return replay(s, holder, prior, same);
  }
  const outcome = await decide(db, s, holder, door);
  await settleScan(db, checklogID, outcome.result, outcome.reason);
  return answer(s, holder, outcome, false, checklogID);
}

type Outcome = { result: ChecklogRow['result']; reason: string };

async function decide(
  db: Kysely<DB>,
  s: Scan,
  holder: Holder,
  door: { eventID: number; activityID: number; personID: number },
): Promise<Outcome> {
  if (s.direction === 'out')
    return (await move(db, door, 0, s.date)) ? { result: 'out', reason: '' } : { result: 'refused', reason: 'not inside' }; // prettier-ignore
  if (holder.approved !== 1) return { result: 'refused', reason: 'not approved' };
  if (await firstEntry(db, door, s.date)) {
    if (s.activityID === 0) await markPresent(db, s.eventID, holder.personID);
    return { result: 'first', reason: '' };
  }
  if (await move(db, door, 1, s.date)) return { result: 'reentry', reason: '' };
  return s.reentry ? { result: 'reentry', reason: '' } : { result: 'refused', reason: 'already inside' };
}

function replay(s: Scan, holder: Holder, prior: ChecklogRow, same: (row: ChecklogRow) => boolean): CheckScan {
  if (!same(prior)) throw conflict('nonce was already used for another scan');
  return answer({ ...s, date: prior.date, nonce: prior.nonce ?? undefined }, holder, prior, true, prior.checklogID);
}

function answer(s: Scan, holder: Holder | undefined, o: Outcome, replayed: boolean, checklogID?: number): CheckScan {
  return {
    checklogID: checklogID === undefined ? '' : String(checklogID),
    eventID: String(s.eventID),
    activityID: String(s.activityID),
    personID: holder ? String(holder.personID) : '',
    name: holder?.name ?? '',
    firstName: holder?.firstName ?? '',
    lastName: holder?.lastName ?? '',
    direction: s.direction,
    result: o.result,
    reason: o.reason,
    date: String(s.date),
    nonce: s.nonce ?? '',
    replayed: replayed ? '1' : '0',
  };
}
