// Grouping the program: days, rooms, one day's room × time grid, and what is on now / next.

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

/** A session placed in the grid: it starts in this row and occupies `rowSpan` rows of its column. */
export interface GridCell {
  session: Session;
  rowSpan: number;
}

/** One row of the grid: the time span [start, end) and one entry per column. */
export interface GridSlot {
  start: number;
  end: number;
  /** A session starting here, `'covered'` (a session from an earlier row continues here), or null (free). */
  cells: (GridCell | null | 'covered')[];
}

export interface Grid {
  /**
   * The room of each column. A room with overlapping sessions gets several consecutive columns (lanes)
   * with the same name, so `rooms.length` is the number of columns; `headers` groups them.
   */
  rooms: string[];
  /** Column headers: each room once, spanning its lanes (`colSpan` ≥ 1), in column order. */
  headers: { room: string; colSpan: number }[];
  /** Rows in time order; consecutive (each ends where the next starts); free rows are kept (breaks). */
  slots: GridSlot[];
}

/** A session with no length is shown as this long in the grid (seconds). */
export const MIN_GRID_LENGTH = 15 * 60;

/**
 * A room × time grid of one day's sessions, for an HTML table.
 *
 * - Rows (`slots`) are the intervals between the distinct start and end times of the sessions, so a row
 *   boundary exists only where something starts or ends; a gap where nothing happens is a row of nulls.
 * - Columns (`rooms`) are the rooms, sorted as rooms() does; `options.rooms` fixes the columns (e.g. every
 *   room of the event, so each day has the same columns, empty ones included), and rooms not in it follow.
 * - A session is in the row it starts in with `rowSpan` = the rows until it ends; the rows below in its
 *   column hold `'covered'` (render nothing there: the `<td rowspan>` above fills them).
 * - Sessions overlapping in one room go to extra lanes (columns with the same room name) so nothing is
 *   hidden; `headers` gives `colSpan` per room.
 * - A session with no length (dateEnd = dateBegin) counts as MIN_GRID_LENGTH long.
 *
 * `timeZone` is the zone of the day shown: a session crossing the day's end is still a single cell.
 * Meant for one day's sessions (byDay); several days give one long grid.
 */
export function gridOf(
  sessions: readonly Session[],
  _timeZone: string,
  options: { rooms?: readonly string[] } = {},
): Grid {
  const endOf = (s: Session) => (s.dateEnd > s.dateBegin ? s.dateEnd : s.dateBegin + MIN_GRID_LENGTH);
  const ordered = [...sessions].sort(
    (a, b) => a.dateBegin - b.dateBegin || endOf(b) - endOf(a) || a.activityID - b.activityID,
  );

  const bounds = [...new Set(ordered.flatMap((s) => [s.dateBegin, endOf(s)]))].sort((a, b) => a - b);
  const row = new Map(bounds.map((t, i) => [t, i]));
  const rowCount = Math.max(0, bounds.length - 1);

  // Rooms in column order; each room has one or more lanes (columns); a session goes to the first lane free
  // at its start row.
  const roomOrder = [...new Set(options.rooms ?? [])];
  for (const r of rooms(ordered)) if (!roomOrder.includes(r)) roomOrder.push(r);
  interface Lane {
    placed: { from: number; span: number; session: Session }[];
    free: number; // the first row this lane is free from
  }
  const lanes = new Map<string, Lane[]>();
  for (const r of roomOrder) lanes.set(r, [{ placed: [], free: 0 }]);
  for (const s of ordered) {
    const from = row.get(s.dateBegin)!;
    const to = row.get(endOf(s))!;
    const roomLanes = lanes.get(s.location)!;
    let lane = roomLanes.find((l) => l.free <= from);
    if (!lane) roomLanes.push((lane = { placed: [], free: 0 }));
    lane.placed.push({ from, span: to - from, session: s });
    lane.free = to;
  }

  const columns: { room: string; lane: Lane }[] = [];
  const headers: Grid['headers'] = [];
  for (const r of roomOrder) {
    const roomLanes = lanes.get(r)!;
    headers.push({ room: r, colSpan: roomLanes.length });
    for (const lane of roomLanes) columns.push({ room: r, lane });
  }

  const slots: GridSlot[] = [];
  for (let i = 0; i < rowCount; i++) {
    slots.push({ start: bounds[i], end: bounds[i + 1], cells: columns.map(() => null) });
  }
  columns.forEach((column, c) => {
    for (const { from, span, session } of column.lane.placed) {
      slots[from].cells[c] = { session, rowSpan: span };
      for (let k = from + 1; k < from + span; k++) slots[k].cells[c] = 'covered';
    }
  });
  return { rooms: columns.map((c) => c.room), headers, slots };
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
