// The event's program as the site and the widgets use it: activity.find's `data` (every scalar a string,
// spec §1.2) turned into typed sessions. Browser-safe: imports only the activity row's type (no zod at
// run time: the widgets' bundles stay small), so reading a field the row does not have does not compile.

import type { Activity } from '../wire/activity.ts';

/** A wire row read leniently: any of its keys may be missing or of another type (the parse tolerates it). */
type Loose<T> = { readonly [K in keyof T]?: unknown };
/** An activity of activity.find's `data`, as parseSession reads it. */
export type ActivityRow = Loose<Activity>;

export interface SessionSpeaker {
  speakerID: number;
  name: string;
  headline: string;
  image: string;
}

export interface SessionTag {
  tagID: number;
  name: string;
  color: string;
}

export interface Session {
  activityID: number;
  name: string;
  description: string;
  /** The room (activity `location`). */
  location: string;
  /** Unix seconds. */
  dateBegin: number;
  /** Unix seconds; never before dateBegin (a bad or missing end becomes dateBegin). */
  dateEnd: number;
  highlight: boolean;
  capacity: number;
  stream: string;
  speakers: SessionSpeaker[];
  tags: SessionTag[];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function int(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

function bool(value: unknown): boolean {
  return value === '1' || value === 1 || value === true || value === 'true';
}

function rows<T>(value: unknown): Loose<T>[] {
  return Array.isArray(value)
    ? value.filter((r): r is Loose<T> => typeof r === 'object' && r !== null && !Array.isArray(r))
    : [];
}

/** One wire activity → a Session (missing fields become '', 0, false or []). */
export function parseSession(row: ActivityRow): Session {
  const dateBegin = int(row.dateBegin);
  const end = int(row.dateEnd);
  return {
    activityID: int(row.activityID),
    name: str(row.name),
    description: str(row.description),
    location: str(row.location).trim(),
    dateBegin,
    dateEnd: end >= dateBegin ? end : dateBegin,
    highlight: bool(row.highlight),
    capacity: int(row.capacity),
    stream: str(row.stream),
    speakers: rows<Activity['speakers'][number]>(row.speakers).map((s) => ({
      speakerID: int(s.speakerID),
      name: str(s.name),
      headline: str(s.headline),
      image: str(s.image),
    })),
    tags: rows<Activity['tags'][number]>(row.tags).map((t) => ({
      tagID: int(t.tagID),
      name: str(t.name),
      color: str(t.color),
    })),
  };
}

/** Orders sessions by start, then room, then activityID (the order every view shows). */
export function compareSessions(a: Session, b: Session): number {
  return (
    a.dateBegin - b.dateBegin ||
    (a.location < b.location ? -1 : a.location > b.location ? 1 : 0) ||
    a.activityID - b.activityID
  );
}

/**
 * activity.find's `data` → sessions sorted by dateBegin, then location, then activityID. Tolerates missing
 * fields and non-object entries (skipped).
 */
export function parseProgram(data: readonly ActivityRow[]): Session[] {
  return rows<Activity>(data).map(parseSession).sort(compareSessions);
}
