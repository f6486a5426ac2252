// Wall-clock parts of a Unix time in an IANA zone, and back: the functions the site and the widgets use
// (src/shared/schedule/time.ts, Intl only), under the names the platform's resources use.

export {
  zonedParts as wallTime,
  zonedToUnix as fromWallTime,
  type ZonedParts as WallTime,
} from '../../shared/schedule/time.ts';

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
