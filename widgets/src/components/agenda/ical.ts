// The download of the visitor's favourites as an .ics file: imported on the first download, so the build
// makes it (with the calendar code) a chunk of its own that most visitors never load. The zone helpers and
// the entity decoder come from the agenda, which has them loaded already (see
// src/shared/schedule/ical-core.ts); the HTML-to-text conversion, which only the calendar needs, is here.
import { calendarOf, type CalendarHelpers } from '../../../../src/shared/schedule/ical-core.ts';
import type { Session } from '../../../../src/shared/schedule/program.ts';
import { htmlAsText } from '../../../../src/shared/schedule/html-text.ts';
import type { decodeEntities } from '../../../../src/shared/schedule/entities.ts';

/** The agenda's helpers the calendar takes: the zone helpers and the entity decoder. */
export type AgendaHelpers = Omit<CalendarHelpers, 'htmlToText'> & { decodeEntities: typeof decodeEntities };

/** Saves `sessions` as `<name>.ics`, times in `timeZone`; UIDs are on the host of `api`. */
export function downloadCalendar(
  name: string,
  timeZone: string,
  sessions: Session[],
  api: string,
  speakersLabel: string,
  { decodeEntities, ...helpers }: AgendaHelpers,
): void {
  const ics = calendarOf({ ...helpers, htmlToText: (html) => htmlAsText(html, decodeEntities) }).toICalendar({
    calendarName: name,
    timeZone,
    sessions,
    uidDomain: new URL(api, location.href).hostname,
    now: Math.floor(Date.now() / 1000),
    speakersLabel,
  });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([ics], { type: 'text/calendar;charset=utf-8' }));
  a.download = `${name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'schedule'}.ics`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
