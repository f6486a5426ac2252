// Wall-clock parts of a Unix time in an IANA zone, and back, with Intl only (no date library).

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, f);
  }
  return f;
}

export function wallTime(unixSeconds: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of format(timeZone).formatToParts(unixSeconds * 1000)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

/** The Unix time at which the zone's clock shows `w` (the earlier instant when a DST change repeats it). */
export function fromWallTime(w: WallTime, timeZone: string): number {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000;
  let guess = asUtc;
  // Two rounds settle the zone offset, including across a DST change.
  for (let i = 0; i < 2; i++) {
    const seen = wallTime(guess, timeZone);
    const seenUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second) / 1000;
    guess += asUtc - seenUtc;
  }
  return guess;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
