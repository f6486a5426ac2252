import type { Selectable } from 'kysely';
import type { ProgramChangeTable } from '../../db/schema.ts';
import type { WebPushNotice } from '../../../shared/wire/webpush.ts';

// What one notification says: the program changelog's rows of one write (migration 0007, computed by
// program/watch.ts) that touch a browser's saved sessions. Only a move, a room change or a removal
// (the platform's cancellation) is worth waking a phone for; a new title or speaker waits for the
// changes page. One write sends one notification per browser, however many of its sessions it changed.

export type ChangeRow = Selectable<ProgramChangeTable>;

/** The changelog kinds that notify. */
export const NOTIFYING_KINDS: ReadonlySet<string> = new Set(['moved', 'room', 'removed']);

/** Sessions one notification names; the rest are counted. */
const MAX_LINES = 5;

export const notifies = (kinds: string): boolean => kinds.split(',').some((k) => NOTIFYING_KINDS.has(k));

export interface NoticeContext {
  readonly eventID: number;
  readonly version: number;
  /** The event's time zone (IANA); its times are said in it. */
  readonly timeZone: string;
  /** The schedule's path on the site the browser registered from ('' when it sent none: the site's home). */
  readonly page: string;
}

const validZone = (zone: string): string => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
};

/** "14:00", or "Tue 14:00" when the session moved to another day. */
function when(begin: number, oldBegin: number | null, zone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' });
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'short' });
  const at = new Date(begin * 1000);
  const sameDay = oldBegin !== null && day.format(at) === day.format(new Date(oldBegin * 1000));
  const weekday = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short' }).format(at);
  return sameDay ? time.format(at) : `${weekday} ${time.format(at)}`;
}

/** One line about one session. */
function line(row: ChangeRow, zone: string): string {
  const kinds = row.kinds.split(',');
  if (kinds.includes('removed')) return `${row.oldName} was cancelled`;
  const room = row.location ? `, ${row.location}` : '';
  if (kinds.includes('moved'))
    return `${row.name} moved to ${when(Number(row.dateBegin), row.oldDateBegin, zone)}${room}`;
  return row.location ? `${row.name} moved to ${row.location}` : `${row.name} has no room any more`;
}

/** The notification for the rows (of one write, each a saved session of the browser that notifies). */
export function noticeOf(rows: readonly ChangeRow[], c: NoticeContext): WebPushNotice | undefined {
  const shown = rows.filter((r) => notifies(r.kinds));
  const first = shown[0];
  if (!first) return undefined;
  const zone = validZone(c.timeZone);
  // Without the schedule's path, the site's home: '/123' would be no page at all.
  const at = (path: string) => (c.page ? `${c.page}/${path}` : '/');
  if (shown.length === 1) {
    const kinds = first.kinds.split(',');
    const removed = kinds.includes('removed');
    return {
      title: removed
        ? 'Your saved session was cancelled'
        : kinds.includes('moved')
          ? 'Your saved session moved'
          : 'Your saved session changed rooms',
      body: line(first, zone),
      url: at(removed ? 'changes' : String(Number(first.activityID))),
      tag: `podium-${c.eventID}-${Number(first.activityID)}`,
    };
  }
  // Push services take about 4 KB of payload: a few lines, then how many more (the changes page has all).
  const lines = shown.slice(0, MAX_LINES).map((r) => line(r, zone));
  if (shown.length > MAX_LINES) lines.push(`and ${shown.length - MAX_LINES} more`);
  return {
    title: `${shown.length} of your saved sessions changed`,
    body: lines.join('\n'),
    url: at('changes'),
    tag: `podium-${c.eventID}-v${c.version}`,
  };
}
