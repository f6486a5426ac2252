// The schedule's filters, kept in the URL so a filtered view can be shared and survives reloads.
// Query keys: day (repeatable, or a comma list), room (repeatable), tag (repeatable, or a comma list),
// q, view (grid|list|now), tz (event|local), mine=1. Invalid values are ignored, never an error.

import type { Session } from './program.ts';
import { decodeEntities } from './entities.ts';
import { dayKey, isDayKey } from './time.ts';

export interface ScheduleFilter {
  /** YYYY-MM-DD days (in the zone given to applyFilter); empty = every day. */
  days: string[];
  /** Room names (Session.location); empty = every room. */
  rooms: string[];
  /** Tag IDs; a session matches when it has any of them; empty = every tag. */
  tags: number[];
  /** Free text; every word must match (case- and accent-insensitive). */
  q: string;
  /** now: what runs now and next (the page's script picks them by the visitor's clock). */
  view: 'grid' | 'list' | 'now';
  /** Show times in the event's zone or the viewer's. */
  tz: 'event' | 'local';
  /** Only the viewer's favourites. */
  mine: boolean;
}

/** No filter: what an empty query means. Defaults are left out of the canonical URL. */
export const DEFAULT_FILTER: Readonly<ScheduleFilter> = Object.freeze({
  days: [],
  rooms: [],
  tags: [],
  q: '',
  view: 'grid',
  tz: 'event',
  mine: false,
});

export const MAX_QUERY_LENGTH = 200;
const MAX_VALUES = 100;

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function listOf(params: URLSearchParams, key: string, splitCommas: boolean): string[] {
  const out: string[] = [];
  for (const raw of params.getAll(key)) {
    for (const value of splitCommas ? raw.split(',') : [raw]) {
      const v = value.trim();
      if (v !== '' && out.length < MAX_VALUES) out.push(v);
    }
  }
  return out;
}

/** A fresh filter equal to DEFAULT_FILTER, with `patch` applied. */
export function makeFilter(patch: Partial<ScheduleFilter> = {}): ScheduleFilter {
  return {
    days: [...(patch.days ?? [])],
    rooms: [...(patch.rooms ?? [])],
    tags: [...(patch.tags ?? [])],
    q: patch.q ?? '',
    view: patch.view ?? DEFAULT_FILTER.view,
    tz: patch.tz ?? DEFAULT_FILTER.tz,
    mine: patch.mine ?? false,
  };
}

/** The filter a URL's query asks for; unknown keys and invalid values are ignored. */
export function filterFromQuery(params: URLSearchParams): ScheduleFilter {
  const view = params.get('view');
  const tz = params.get('tz');
  const mine = params.get('mine');
  return {
    days: unique(listOf(params, 'day', true).filter(isDayKey)).sort(),
    rooms: unique(listOf(params, 'room', false).map((r) => r.slice(0, MAX_QUERY_LENGTH))).sort(),
    tags: unique(
      listOf(params, 'tag', true)
        .filter((t) => /^\d{1,15}$/.test(t))
        .map(Number)
        .filter((n) => n > 0),
    ).sort((a, b) => a - b),
    q: (params.get('q') ?? '').trim().replace(/\s+/g, ' ').slice(0, MAX_QUERY_LENGTH),
    view: view === 'grid' || view === 'list' || view === 'now' ? view : DEFAULT_FILTER.view,
    tz: tz === 'event' || tz === 'local' ? tz : DEFAULT_FILTER.tz,
    mine: mine === '1' || mine === 'true',
  };
}

/**
 * The canonical query of a filter: keys in the order day, room, tag, q, view, tz, mine; lists sorted and
 * repeated (`day=…&day=…`); defaults left out, so no filter is the empty string.
 */
export function filterToQuery(f: ScheduleFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const day of unique(f.days.filter(isDayKey)).sort()) params.append('day', day);
  for (const room of unique(f.rooms.map((r) => r.trim()).filter((r) => r !== '')).sort()) params.append('room', room);
  for (const tag of unique(f.tags.filter((t) => Number.isSafeInteger(t) && t > 0)).sort((a, b) => a - b)) {
    params.append('tag', String(tag));
  }
  const q = f.q.trim().replace(/\s+/g, ' ').slice(0, MAX_QUERY_LENGTH);
  if (q !== '') params.set('q', q);
  if (f.view !== DEFAULT_FILTER.view) params.set('view', f.view);
  if (f.tz !== DEFAULT_FILTER.tz) params.set('tz', f.tz);
  if (f.mine) params.set('mine', '1');
  return params;
}

/** Whether a filter narrows the sessions at all (view and tz do not). */
export function isFiltering(f: ScheduleFilter): boolean {
  return f.days.length > 0 || f.rooms.length > 0 || f.tags.length > 0 || f.q.trim() !== '' || f.mine;
}

/** Lower case, accents removed, HTML tags dropped and entities decoded, spaces collapsed: for matching. */
export function foldText(text: string): string {
  return decodeEntities(text.replace(/<[^>]*>/g, ' '))
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const haystacks = new WeakMap<Session, string>();

function haystackOf(s: Session): string {
  let text = haystacks.get(s);
  if (text === undefined) {
    text = foldText(
      [s.name, s.description, s.location, ...s.speakers.map((p) => p.name), ...s.tags.map((t) => t.name)].join('\n'),
    );
    haystacks.set(s, text);
  }
  return text;
}

/**
 * The sessions a filter keeps, in their order. `timeZone` is the zone `f.days` are in (the event's, or
 * the viewer's when tz=local). `mine` keeps only `favourites` (none when not given).
 */
export function applyFilter(
  sessions: Session[],
  f: ScheduleFilter,
  timeZone: string,
  favourites?: ReadonlySet<number>,
): Session[] {
  const days = f.days.length > 0 ? new Set(f.days) : null;
  const rooms = f.rooms.length > 0 ? new Set(f.rooms) : null;
  const tags = f.tags.length > 0 ? new Set(f.tags) : null;
  const words = foldText(f.q).split(' ').filter(Boolean);
  return sessions.filter(
    (s) =>
      (!f.mine || (favourites?.has(s.activityID) ?? false)) &&
      (rooms === null || rooms.has(s.location)) &&
      (tags === null || s.tags.some((t) => tags.has(t.tagID))) &&
      (days === null || days.has(dayKey(s.dateBegin, timeZone))) &&
      (words.length === 0 || words.every((w) => haystackOf(s).includes(w))),
  );
}
