// One day's room × time grid. A module of its own that imports nothing (its callers sort the rooms), so
// that the agenda widget's grid chunk takes it whole and shares no code with the agenda
// (widgets/src/components/agenda/grid.ts).

import type { Session } from './program.ts';

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
  /** Whether a session or a break begins in this row (the rows worth a time label). */
  starts: boolean;
  /**
   * With `breaks`: a break begins in this row and takes `rowSpan` rows across every column (its cells are
   * all null), or `'covered'` when a break from an earlier row continues here. `session` is the break's own
   * activity (a session without room and speakers while nothing else runs), else null (a gap).
   */
  band?: { rowSpan: number; session: Session | null } | 'covered';
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
  /** The length of every row in seconds when rows are uniform (`step`), else 0. */
  step: number;
}

/** A session with no length is shown as this long in the grid (seconds). */
export const MIN_GRID_LENGTH = 15 * 60;

const GCD = (a: number, b: number): number => (b === 0 ? a : GCD(b, a % b));

/**
 * The row length of a uniform grid for these times (seconds): the largest of 30, 15, 10 or 5 minutes that
 * divides every time's distance from the first (times are first rounded to 5 minutes), so each session
 * covers whole rows and a row's height can stand for its minutes.
 */
export function gridStep(times: readonly number[]): number {
  const FIVE = 300;
  if (times.length === 0) return 30 * 60;
  const first = Math.min(...times);
  let g = 0;
  for (const t of times) g = GCD(g, Math.round((t - first) / FIVE));
  for (const minutes of [30, 15, 10, 5]) if (g === 0 || g % (minutes / 5) === 0) return minutes * 60;
  return FIVE;
}

/**
 * A room × time grid of one day's sessions, for an HTML table.
 *
 * - Rows (`slots`) are the intervals between the distinct start and end times of the sessions, so a row
 *   boundary exists only where something starts or ends; a gap where nothing happens is a row of nulls.
 *   With `step: true` the rows are instead all as long (gridStep), so a page can give every row the same
 *   height and a 90 min session is three times as tall as a 30 min one; times are placed to the nearest
 *   row (to 5 minutes at worst), the cells still say the exact times.
 * - Columns (`rooms`) are `options.rooms`, in their order: the caller's, sorted by rooms() (group.ts),
 *   e.g. every room of the event so each day has the same columns, empty ones included. A session's room
 *   not in it gets a column after them.
 * - A session is in the row it starts in with `rowSpan` = the rows until it ends; the rows below in its
 *   column hold `'covered'` (render nothing there: the `<td rowspan>` above fills them).
 * - Sessions overlapping in one room go to extra lanes (columns with the same room name) so nothing is
 *   hidden; `headers` gives `colSpan` per room.
 * - A session with no length (dateEnd = dateBegin) counts as MIN_GRID_LENGTH long.
 * - With `breaks: true` every run of rows where no room has a session is a break (`band` on its first
 *   row), and a session without room and speakers while nothing else runs (a coffee break, lunch) is taken
 *   out of the columns to name that break; the no-room column then shows only if something else is in it.
 *
 * A session crossing the day's end is still a single cell. Meant for one day's sessions (byDay); several
 * days give one long grid.
 */
export function gridOf(
  sessions: readonly Session[],
  options: { rooms: readonly string[]; step?: boolean; breaks?: boolean },
): Grid {
  const endOf = (s: Session) => (s.dateEnd > s.dateBegin ? s.dateEnd : s.dateBegin + MIN_GRID_LENGTH);
  let ordered = [...sessions].sort(
    (a, b) => a.dateBegin - b.dateBegin || endOf(b) - endOf(a) || a.activityID - b.activityID,
  );
  // Break activities: no room, no speakers, and nothing else running meanwhile.
  const breakSessions = options.breaks
    ? ordered.filter(
        (s) =>
          s.location === '' &&
          s.speakers.length === 0 &&
          !ordered.some((o) => o !== s && o.dateBegin < endOf(s) && s.dateBegin < endOf(o)),
      )
    : [];
  if (breakSessions.length > 0) ordered = ordered.filter((s) => !breakSessions.includes(s));

  const times = [...new Set([...ordered, ...breakSessions].flatMap((s) => [s.dateBegin, endOf(s)]))].sort(
    (a, b) => a - b,
  );
  let bounds = times;
  let rowOf = (t: number) => bounds.indexOf(t);
  let step = 0;
  if (options.step && times.length > 0) {
    step = gridStep(times);
    const first = times[0];
    const count = Math.max(1, Math.round((times[times.length - 1] - first) / step));
    bounds = Array.from({ length: count + 1 }, (_, i) => first + i * step);
    rowOf = (t: number) => Math.min(count, Math.round((t - first) / step));
  } else {
    const row = new Map(bounds.map((t, i) => [t, i]));
    rowOf = (t: number) => row.get(t)!;
  }
  const rowCount = Math.max(0, bounds.length - 1);
  // A session shorter than half a row still takes one.
  const span = (s: Session) => {
    const from = Math.min(rowOf(s.dateBegin), Math.max(0, rowCount - 1));
    return { from, to: Math.max(from + 1, rowOf(endOf(s))) };
  };

  // Rooms in column order; each room has one or more lanes (columns); a session goes to the first lane free
  // at its start row.
  const roomOrder = [...new Set([...options.rooms, ...ordered.map((s) => s.location)])].filter(
    (r) => !(options.breaks && r === '' && !ordered.some((s) => s.location === '')),
  );
  interface Lane {
    placed: { from: number; span: number; session: Session }[];
    free: number; // the first row this lane is free from
  }
  const lanes = new Map<string, Lane[]>();
  for (const r of roomOrder) lanes.set(r, [{ placed: [], free: 0 }]);
  for (const s of ordered) {
    const { from, to } = span(s);
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
    slots.push({ start: bounds[i], end: bounds[i + 1], cells: columns.map(() => null), starts: false });
  }
  columns.forEach((column, c) => {
    for (const { from, span, session } of column.lane.placed) {
      slots[from].cells[c] = { session, rowSpan: span };
      slots[from].starts = true;
      for (let k = from + 1; k < from + span; k++) slots[k].cells[c] = 'covered';
    }
  });
  if (options.breaks) {
    const busy = (slot: GridSlot) => slot.cells.some((c) => c !== null);
    for (let i = 0; i < slots.length; i++) {
      if (busy(slots[i])) continue;
      let j = i;
      while (j < slots.length && !busy(slots[j])) j++;
      // A break activity names the run it begins in.
      const named = breakSessions.find((s) => {
        const from = span(s).from;
        return from >= i && from < j;
      });
      slots[i].band = { rowSpan: j - i, session: named ?? null };
      slots[i].starts = true;
      for (let k = i + 1; k < j; k++) slots[k].band = 'covered';
      i = j - 1;
    }
  }
  return { rooms: columns.map((c) => c.room), headers, slots, step };
}
