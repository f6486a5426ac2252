// The iCalendar answers (RFC 5545, built by src/shared/schedule/ical.ts): the schedule as filtered in
// the URL (or only the sessions in `ids`, the visitor's favourites), or one session.

import type { Session } from '../shared/schedule/program.ts';
import { applyFilter, filterFromQuery } from '../shared/schedule/filter.ts';
import { toICalendar } from '../shared/schedule/ical.ts';
import { t } from '../shared/i18n/messages.ts';
import type { RequestContext } from './context.ts';
import { fileName, loadProgram, plain } from './exports.ts';
import { placeLine } from '../shared/place.ts';

/** `ids=1,2,3` → those activity IDs (at most 1000), or undefined when absent. */
export function idsOf(params: URLSearchParams): Set<number> | undefined {
  const raw = params.get('ids');
  if (raw === null) return undefined;
  return new Set(
    raw
      .split(',')
      .slice(0, 1000)
      .filter((v) => /^\d{1,15}$/.test(v.trim()))
      .map((v) => Number(v.trim()))
      .filter((n) => n > 0),
  );
}

export async function icsResponse(
  ctx: RequestContext,
  namespace: string,
  nickname: string,
  query: URLSearchParams,
  activityID?: number,
): Promise<Response> {
  const load = await loadProgram(ctx, namespace, nickname);
  if (load instanceof Response) return load;
  const { event, links, locale, timeZone, program } = load;
  let sessions: Session[];
  if (activityID !== undefined) {
    sessions = program.filter((s) => s.activityID === activityID);
    if (sessions.length === 0) return plain(404, 'activity not found');
  } else {
    const ids = idsOf(query);
    sessions = ids
      ? program.filter((s) => ids.has(s.activityID))
      : applyFilter(program, { ...filterFromQuery(query), mine: false }, timeZone);
  }
  const canonical = links.canonical('');
  const uidDomain = new URL(canonical).hostname;
  const hour = Math.floor(ctx.runtime.now() / 3_600_000) * 3600;
  const body = toICalendar({
    calendarName: activityID !== undefined ? `${sessions[0].name} · ${event.name}` : event.name,
    timeZone,
    sessions,
    urlOf: (s) => links.canonical(`/schedule/${s.activityID}`),
    uidDomain,
    now: hour,
    location: placeLine(event.placeName, event.address, event.city),
    speakersLabel: t(locale, 'schedule.speakers'),
  });
  const name = fileName(event, `${activityID !== undefined ? `-${activityID}` : ''}.ics`);
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      ...(load.isPrivate ? { 'cache-control': 'private, no-store' } : {}),
    },
  });
}
