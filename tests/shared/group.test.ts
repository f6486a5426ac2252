import { describe, expect, it } from 'vitest';
import { byDay, compareRooms, days, nowNext, rooms } from '../../src/shared/schedule/group.ts';
import { gridOf, type Grid } from '../../src/shared/schedule/grid.ts';
import type { Session } from '../../src/shared/schedule/program.ts';
import { session, unix } from './fixtures.ts';

/** A grid as text, one line per row: "09:00-10:00 | 1/2 | . | ^" (id/rowSpan, free, covered). */
function picture(grid: Grid): string[] {
  const hhmm = (t: number) => new Date(t * 1000).toISOString().slice(11, 16);
  return grid.slots.map(
    (slot) =>
      `${hhmm(slot.start)}-${hhmm(slot.end)} | ` +
      slot.cells
        .map((c) => (c === null ? '.' : c === 'covered' ? '^' : `${c.session.activityID}/${c.rowSpan}`))
        .join(' | '),
  );
}

const d = (hm: string) => `2025-12-22T${hm}:00Z`;

/**
 * The grid with its columns as the site and the agenda give them: `rooms` first, then the others sorted
 * by rooms(). The cases below test rows, lanes and breaks with those columns; what gridOf does with a
 * room it was not given is the case "gives a session whose room the columns lack…".
 */
const gridFor = (sessions: Session[], options: { rooms?: string[]; step?: boolean; breaks?: boolean } = {}) =>
  gridOf(sessions, { ...options, rooms: [...(options.rooms ?? []), ...rooms(sessions)] });

describe('days, rooms, byDay', () => {
  const sessions = [
    session(1, 'Room 10', '2025-12-21T23:30:00Z', '2025-12-22T00:30:00Z'),
    session(2, 'Room 2', d('09:00'), d('10:00')),
    session(3, '', d('09:00'), d('10:00')),
    session(4, 'auditorium', d('11:00'), d('12:00')),
    session(5, 'Room 2', '2025-12-23T09:00:00Z', '2025-12-23T10:00:00Z'),
  ];

  it('lists the days in the zone', () => {
    expect(days(sessions, 'UTC')).toEqual(['2025-12-21', '2025-12-22', '2025-12-23']);
    expect(days(sessions, 'Europe/Berlin')).toEqual(['2025-12-22', '2025-12-23']);
    expect(days([], 'UTC')).toEqual([]);
  });

  it('sorts rooms alphabetically, numbers by value, no room last', () => {
    expect(rooms(sessions)).toEqual(['auditorium', 'Room 2', 'Room 10', '']);
    expect(['b', '', 'A', 'a'].sort(compareRooms)).toEqual(['A', 'a', 'b', '']);
  });

  it('groups by day', () => {
    const map = byDay(sessions, 'Europe/Berlin');
    expect([...map.keys()]).toEqual(['2025-12-22', '2025-12-23']);
    expect(map.get('2025-12-22')!.map((s) => s.activityID)).toEqual([1, 2, 3, 4]);
  });
});

describe('gridOf', () => {
  it.each<[string, Session[], { rooms?: string[] } | undefined, string[], string[]]>([
    ['an empty day', [], undefined, [], []],
    ['one session', [session(1, 'A', d('09:00'), d('10:00'))], undefined, ['A'], ['09:00-10:00 | 1/1']],
    [
      'parallel sessions of the same length',
      [session(1, 'A', d('09:00'), d('10:00')), session(2, 'B', d('09:00'), d('10:00'))],
      undefined,
      ['A', 'B'],
      ['09:00-10:00 | 1/1 | 2/1'],
    ],
    [
      'different lengths: a long session spans rows',
      [
        session(1, 'A', d('09:00'), d('11:00')),
        session(2, 'B', d('09:00'), d('09:30')),
        session(3, 'B', d('09:30'), d('10:15')),
        session(4, 'B', d('10:15'), d('11:00')),
      ],
      undefined,
      ['A', 'B'],
      ['09:00-09:30 | 1/3 | 2/1', '09:30-10:15 | ^ | 3/1', '10:15-11:00 | ^ | 4/1'],
    ],
    [
      'a break: a row where nothing happens',
      [session(1, 'A', d('09:00'), d('10:00')), session(2, 'A', d('11:00'), d('12:00'))],
      undefined,
      ['A'],
      ['09:00-10:00 | 1/1', '10:00-11:00 | .', '11:00-12:00 | 2/1'],
    ],
    [
      'staggered starts',
      [session(1, 'A', d('09:00'), d('10:00')), session(2, 'B', d('09:30'), d('10:30'))],
      undefined,
      ['A', 'B'],
      ['09:00-09:30 | 1/2 | .', '09:30-10:00 | ^ | 2/2', '10:00-10:30 | . | ^'],
    ],
    [
      'overlaps in one room get a second lane',
      [
        session(1, 'A', d('09:00'), d('10:00')),
        session(2, 'A', d('09:30'), d('10:30')),
        session(3, 'A', d('10:00'), d('11:00')),
      ],
      undefined,
      ['A', 'A'],
      ['09:00-09:30 | 1/2 | .', '09:30-10:00 | ^ | 2/2', '10:00-10:30 | 3/2 | ^', '10:30-11:00 | ^ | .'],
    ],
    [
      'the same start and end in one room',
      [session(2, 'A', d('09:00'), d('10:00')), session(1, 'A', d('09:00'), d('10:00'))],
      undefined,
      ['A', 'A'],
      ['09:00-10:00 | 1/1 | 2/1'],
    ],
    [
      'fixed columns keep empty rooms and their order',
      [session(1, 'B', d('09:00'), d('10:00')), session(2, 'Z', d('09:00'), d('10:00'))],
      { rooms: ['C', 'B', 'A'] },
      ['C', 'B', 'A', 'Z'],
      ['09:00-10:00 | . | 1/1 | . | 2/1'],
    ],
    [
      'a session without length is MIN_GRID_LENGTH long',
      [session(1, 'A', d('09:00'), d('09:00')), session(2, 'B', d('09:00'), d('10:00'))],
      undefined,
      ['A', 'B'],
      ['09:00-09:15 | 1/1 | 2/2', '09:15-10:00 | . | ^'],
    ],
    [
      'sessions without a room go last',
      [session(1, '', d('09:00'), d('10:00')), session(2, 'A', d('09:00'), d('10:00'))],
      undefined,
      ['A', ''],
      ['09:00-10:00 | 2/1 | 1/1'],
    ],
  ])('%s', (_, sessions, options, expectedRooms, expectedRows) => {
    const g = gridFor(sessions, options);
    expect(g.rooms).toEqual(expectedRooms);
    expect(picture(g)).toEqual(expectedRows);
  });

  it('gives a session whose room the columns lack a column after them (callers give every room)', () => {
    const sessions = [session(1, 'B', d('09:00'), d('10:00')), session(2, 'A', d('09:00'), d('10:00'))];
    const g = gridOf(sessions, { rooms: ['C'] });
    expect(g.rooms).toEqual(['C', 'B', 'A']);
    expect(picture(g)).toEqual(['09:00-10:00 | . | 1/1 | 2/1']);
  });

  it('groups lanes under one header per room', () => {
    const grid = gridFor([
      session(1, 'A', d('09:00'), d('10:00')),
      session(2, 'A', d('09:30'), d('10:30')),
      session(3, 'B', d('09:00'), d('10:00')),
    ]);
    expect(grid.headers).toEqual([
      { room: 'A', colSpan: 2 },
      { room: 'B', colSpan: 1 },
    ]);
  });

  it('places every session exactly once and covers exactly its rows (random programs)', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 50; round++) {
      const sessions = Array.from({ length: 1 + random(30) }, (_, i) => {
        const begin = unix(d('08:00')) + random(40) * 900;
        return session(
          i + 1,
          `R${random(5)}`,
          new Date(begin * 1000).toISOString(),
          new Date((begin + random(12) * 900) * 1000).toISOString(),
        );
      });
      const grid = gridFor(sessions);
      const seen = new Map<number, number>();
      grid.slots.forEach((slot, r) => {
        expect(slot.cells).toHaveLength(grid.rooms.length);
        if (r > 0) expect(slot.start).toBe(grid.slots[r - 1].end);
        slot.cells.forEach((cell, c) => {
          if (cell === null || cell === 'covered') return;
          seen.set(cell.session.activityID, (seen.get(cell.session.activityID) ?? 0) + 1);
          expect(grid.rooms[c]).toBe(cell.session.location);
          expect(slot.start).toBe(cell.session.dateBegin);
          const end = grid.slots[r + cell.rowSpan - 1].end;
          expect(end).toBe(Math.max(cell.session.dateEnd, cell.session.dateBegin + 900));
          for (let k = 1; k < cell.rowSpan; k++) expect(grid.slots[r + k].cells[c]).toBe('covered');
        });
      });
      expect(seen.size).toBe(sessions.length);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      const covered = grid.slots.flatMap((s) => s.cells).filter((c) => c === 'covered').length;
      const spans = grid.slots
        .flatMap((s) => s.cells)
        .reduce((n, c) => n + (c && c !== 'covered' ? c.rowSpan - 1 : 0), 0);
      expect(covered).toBe(spans);
    }
  });
});

describe('nowNext', () => {
  const sessions = [
    session(1, 'A', d('09:00'), d('10:00')),
    session(2, 'B', d('09:30'), d('11:00')),
    session(3, 'A', d('10:00'), d('11:00')),
    session(4, 'C', d('10:00'), d('10:30')),
    session(5, 'A', d('11:00'), d('12:00')),
  ];
  const at = (hm: string) => {
    const r = nowNext(sessions, unix(d(hm)));
    return { now: r.now.map((s) => s.activityID), next: r.next.map((s) => s.activityID) };
  };

  it.each([
    ['08:00', [], [1]],
    ['09:00', [1], [2]],
    ['09:45', [1, 2], [3, 4]],
    ['10:00', [2, 3, 4], [5]],
    ['11:30', [5], []],
    ['12:00', [], []],
  ])('at %s', (hm, now, next) => {
    expect(at(hm)).toEqual({ now, next });
  });
});

describe('gridOf with uniform rows and breaks (the site grid)', () => {
  /** Like picture(), with the bands: "B3" a break of 3 rows (B3:id when a break activity names it), "b" covered. */
  function bands(grid: Grid): string[] {
    return picture(grid).map((line, i) => {
      const band = grid.slots[i].band;
      const mark =
        band === undefined
          ? ''
          : band === 'covered'
            ? ' b'
            : ` B${band.rowSpan}${band.session ? `:${band.session.activityID}` : ''}`;
      return `${line}${mark}${grid.slots[i].starts ? ' *' : ''}`;
    });
  }
  const coffee = (id: number, from: string, to: string) => session(id, '', d(from), d(to), { name: 'Coffee' });

  it.each<[string, Session[], number, string[]]>([
    [
      'a 30 and a 90 min session: rows of 30 min, spans 1 and 3',
      [session(1, 'A', d('09:00'), d('09:30')), session(2, 'B', d('09:00'), d('10:30'))],
      1800,
      ['09:00-09:30 | 1/1 | 2/3 *', '09:30-10:00 | . | ^', '10:00-10:30 | . | ^'],
    ],
    [
      'a gap is a break across the rooms, as long as it lasts',
      [session(1, 'A', d('09:00'), d('10:00')), session(2, 'B', d('10:15'), d('11:00'))],
      900,
      [
        '09:00-09:15 | 1/4 | . *',
        '09:15-09:30 | ^ | .',
        '09:30-09:45 | ^ | .',
        '09:45-10:00 | ^ | .',
        '10:00-10:15 | . | . B1 *',
        '10:15-10:30 | . | 2/3 *',
        '10:30-10:45 | . | ^',
        '10:45-11:00 | . | ^',
      ],
    ],
    [
      'a break activity (no room, no speakers, nothing else on) names its break and takes no column',
      [session(1, 'A', d('09:00'), d('10:00')), coffee(2, '10:00', '11:00'), session(3, 'A', d('11:00'), d('12:00'))],
      3600 / 2,
      [
        '09:00-09:30 | 1/2 *',
        '09:30-10:00 | ^',
        '10:00-10:30 | . B2:2 *',
        '10:30-11:00 | . b',
        '11:00-11:30 | 3/2 *',
        '11:30-12:00 | ^',
      ],
    ],
    [
      'a session without room while others run stays in its column',
      [session(1, 'A', d('09:00'), d('10:00')), coffee(2, '09:30', '10:00')],
      1800,
      ['09:00-09:30 | 1/2 | . *', '09:30-10:00 | ^ | 2/1 *'],
    ],
    [
      'odd minutes snap to 5-minute rows',
      [session(1, 'A', d('09:00'), d('09:07')), session(2, 'A', d('09:10'), d('09:20'))],
      300,
      ['09:00-09:05 | 1/1 *', '09:05-09:10 | . B1 *', '09:10-09:15 | 2/2 *', '09:15-09:20 | ^'],
    ],
  ])('%s', (_, sessions, step, expected) => {
    const grid = gridFor(sessions, { step: true, breaks: true });
    expect(grid.step).toBe(step);
    expect(bands(grid)).toEqual(expected);
  });
});
