// The program as an iCalendar file (RFC 5545): ical-core.ts with the zone and text helpers of time.ts and
// text.ts bound, as the site and the tests use it.

import { htmlToText } from './text.ts';
import { offsetMinutes, safeTimeZone, zonedParts } from './time.ts';
import { calendarOf } from './ical-core.ts';

export {
  escapeText,
  foldLine,
  utcOffset,
  utcStamp,
  type CalendarHelpers,
  type ICalendarInput,
  type ZoneTransition,
} from './ical-core.ts';

export const { localStamp, zoneTransitions, vtimezone, toICalendar } = calendarOf({
  htmlToText,
  offsetMinutes,
  safeTimeZone,
  zonedParts,
});
