// Grouping the program: days, rooms, and what is on now / next (one day's room × time grid: grid.ts).

import type { Session } from './program.ts';
import { dayKey } from './time.ts';

/** The distinct days (YYYY-MM-DD in `timeZone`) on which sessions begin, in order. */
export function days(sessions: readonly Session[], timeZone: string): string[] {
  return [...new Set(sessions.map((s) => dayKey(s.dateBegin, timeZone)))].sort();
}

let collator: Intl.Collator | undefined;

/** Orders room names alphabetically, numbers by value ("Room 2" before "Room 10"); '' (no room) last. */
export function compareRooms(a: string, b: string): number {
  if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
  collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The distinct rooms, sorted alphabetically with numbers by value ("Auditorium", "Room 2", "Room 10"),
 * so every day and every view list rooms in the same order; sessions without a room give '' (last).
 */
export function rooms(sessions: readonly Session[]): string[] {
  return [...new Set(sessions.map((s) => s.location))].sort(compareRooms);
}

/** Sessions by the day they begin on in `timeZone` (keys in order, sessions in their given order). */
export function byDay(sessions: readonly Session[], timeZone: string): Map<string, Session[]> {
  const map = new Map<string, Session[]>();
  for (const key of days(sessions, timeZone)) map.set(key, []);
  for (const s of sessions) map.get(dayKey(s.dateBegin, timeZone))!.push(s);
  return map;
}

/**
 * What is on at `now` (Unix seconds): `now` = sessions running (dateBegin ≤ now < dateEnd), `next` =
 * every session beginning at the earliest start after `now` (several rooms may start together). Both in
 * the given order.
 */
export function nowNext(sessions: readonly Session[], now: number): { now: Session[]; next: Session[] } {
  const running = sessions.filter((s) => s.dateBegin <= now && now < s.dateEnd);
  let nextStart = Infinity;
  for (const s of sessions) if (s.dateBegin > now && s.dateBegin < nextStart) nextStart = s.dateBegin;
  return { now: running, next: sessions.filter((s) => s.dateBegin === nextStart) };
}
