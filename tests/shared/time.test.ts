import { describe, expect, it } from 'vitest';
import {
  dateTimeFormat,
  dayKey,
  formatDay,
  formatRange,
  formatRangeUnder,
  formatTime,
  isDayKey,
  localTimeZone,
  offsetMinutes,
  safeTimeZone,
  startOfDay,
  zoneLabel,
  zonedParts,
  zonedToUnix,
} from '../../src/shared/schedule/time.ts';
import { unix } from './fixtures.ts';

describe('dayKey', () => {
  it.each([
    ['2025-12-21T23:30:00Z', 'Europe/Lisbon', '2025-12-21'],
    ['2025-12-21T23:30:00Z', 'Europe/Berlin', '2025-12-22'],
    ['2025-12-21T02:00:00Z', 'America/Sao_Paulo', '2025-12-20'],
    ['2025-12-21T10:30:00Z', 'Pacific/Kiritimati', '2025-12-22'],
    ['2025-12-21T00:00:00Z', 'UTC', '2025-12-21'],
    ['2025-12-21T00:00:00Z', 'Not/AZone', '2025-12-21'],
    ['2025-07-01T00:30:00Z', 'Europe/Lisbon', '2025-07-01'],
    ['2025-06-30T23:30:00Z', 'Europe/Lisbon', '2025-07-01'],
  ])('%s in %s is %s', (iso, zone, expected) => {
    expect(dayKey(unix(iso), zone)).toBe(expected);
  });
});

describe('offsets and wall clock', () => {
  it.each([
    ['2025-01-15T12:00:00Z', 'Europe/Lisbon', 0],
    ['2025-07-15T12:00:00Z', 'Europe/Lisbon', 60],
    ['2025-07-15T12:00:00Z', 'America/New_York', -240],
    ['2025-01-15T12:00:00Z', 'America/New_York', -300],
    ['2019-01-15T12:00:00Z', 'America/Sao_Paulo', -120],
    ['2025-01-15T12:00:00Z', 'America/Sao_Paulo', -180],
    ['2025-01-15T12:00:00Z', 'Asia/Kolkata', 330],
    ['2025-01-15T12:00:00Z', 'Asia/Kathmandu', 345],
    ['2025-01-15T12:00:00Z', 'Australia/Lord_Howe', 660],
    ['2025-07-15T12:00:00Z', 'Australia/Lord_Howe', 630],
  ])('%s in %s: %i minutes', (iso, zone, minutes) => {
    expect(offsetMinutes(unix(iso), zone)).toBe(minutes);
  });

  it('gives midnight as hour 0', () => {
    expect(zonedParts(unix('2025-12-21T00:00:00Z'), 'UTC')).toEqual({
      year: 2025,
      month: 12,
      day: 21,
      hour: 0,
      minute: 0,
      second: 0,
    });
  });

  it.each([
    ['Europe/Lisbon', { year: 2025, month: 3, day: 30, hour: 0, minute: 30, second: 0 }, '2025-03-30T00:30:00Z'],
    // skipped by spring-forward: 01:30 does not exist → the same instant as 02:30 WEST
    ['Europe/Lisbon', { year: 2025, month: 3, day: 30, hour: 1, minute: 30, second: 0 }, '2025-03-30T01:30:00Z'],
    // repeated by fall-back: the first pass (WEST)
    ['Europe/Lisbon', { year: 2025, month: 10, day: 26, hour: 1, minute: 30, second: 0 }, '2025-10-26T00:30:00Z'],
    ['America/Sao_Paulo', { year: 2018, month: 12, day: 1, hour: 9, minute: 0, second: 0 }, '2018-12-01T11:00:00Z'],
    ['Asia/Tokyo', { year: 2025, month: 12, day: 21, hour: 9, minute: 0, second: 0 }, '2025-12-21T00:00:00Z'],
  ])('zonedToUnix in %s', (zone, parts, iso) => {
    expect(zonedToUnix(parts, zone)).toBe(unix(iso));
  });

  it('starts a day at local midnight, even a day that begins at 01:00 (Sao Paulo 2018-11-04)', () => {
    expect(startOfDay('2025-12-21', 'Europe/Lisbon')).toBe(unix('2025-12-21T00:00:00Z'));
    expect(startOfDay('2025-12-21', 'Asia/Tokyo')).toBe(unix('2025-12-20T15:00:00Z'));
    expect(startOfDay('2018-11-04', 'America/Sao_Paulo')).toBe(unix('2018-11-04T03:00:00Z'));
    expect(startOfDay('nope', 'UTC')).toBeNaN();
  });

  it('checks day keys', () => {
    expect(['2025-12-21', '2024-02-29'].map(isDayKey)).toEqual([true, true]);
    expect(['2025-02-29', '2025-13-01', '2025-1-1', '20251221', '', 'x2025-12-21'].map(isDayKey)).toEqual(
      Array(6).fill(false),
    );
  });

  it('falls back to UTC for unknown zones and knows the local one', () => {
    expect(safeTimeZone('Europe/Lisbon')).toBe('Europe/Lisbon');
    expect(safeTimeZone('Mars/Olympus')).toBe('UTC');
    expect(safeTimeZone('')).toBe('UTC');
    expect(safeTimeZone(undefined)).toBe('UTC');
    expect(safeTimeZone(localTimeZone())).toBe(localTimeZone());
  });
});

describe('formatting', () => {
  const nine = unix('2025-12-22T09:05:00Z');
  it.each([
    [nine, 'Europe/Lisbon', 'en', '09:05'],
    [nine, 'Europe/Lisbon', 'pt', '09:05'],
    [nine, 'America/New_York', 'es', '04:05'],
    [unix('2025-12-22T00:00:00Z'), 'UTC', 'en', '00:00'],
  ])('formatTime(%i, %s, %s) = %s', (t, zone, locale, expected) => {
    expect(formatTime(t, zone, locale)).toBe(expected);
  });

  it('follows the locale when asked', () => {
    expect(formatTime(unix('2025-12-22T14:05:00Z'), 'UTC', 'en-US', 'locale')).toMatch(/^2:05\sPM$/);
  });

  it.each([
    ['2025-12-22', 'en', 'long', 'Monday 22 December'],
    ['2025-12-22', 'en-US', 'long', 'Monday, December 22'],
    ['2025-12-22', 'pt', 'long', 'segunda-feira, 22 de dezembro'],
    ['2025-12-22', 'es', 'long', 'lunes, 22 de diciembre'],
    ['2025-12-22', 'en', 'short', 'Mon 22 Dec'],
    ['not-a-day', 'en', 'long', 'not-a-day'],
  ] as const)('formatDay(%s, %s, %s) = %s', (day, locale, style, expected) => {
    expect(formatDay(day, 'Pacific/Kiritimati', locale, style)).toBe(expected);
  });

  it.each([
    ['2025-12-22T09:00:00Z', '2025-12-22T10:30:00Z', '09:00–10:30'],
    ['2025-12-22T09:00:00Z', '2025-12-22T09:00:00Z', '09:00'],
    ['2025-12-22T22:00:00Z', '2025-12-23T01:00:00Z', 'Mon 22 Dec 22:00 – Tue 23 Dec 01:00'],
    ['2025-12-22T23:15:00Z', '2025-12-23T00:00:00Z', '23:15–00:00'], // until midnight: that day's
    ['2025-12-22T23:15:00Z', '2025-12-23T00:00:01Z', 'Mon 22 Dec 23:15 – Tue 23 Dec 00:00'],
  ])('formatRange %s – %s', (a, b, expected) => {
    expect(formatRange(unix(a), unix(b), 'Europe/Lisbon', 'en')).toBe(expected);
  });

  // Under the event's day (Lisbon) in the visitor's zone: the day is named only when it is another one.
  it.each([
    ['2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z', 'Pacific/Auckland', '22:00–23:00'],
    ['2025-12-22T16:15:00Z', '2025-12-22T17:00:00Z', 'Pacific/Auckland', 'Tue 23 Dec, 05:15–06:00'],
    ['2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z', 'America/New_York', '04:00–05:00'],
    ['2025-12-22T03:00:00Z', '2025-12-22T04:00:00Z', 'America/New_York', 'Sun 21 Dec, 22:00–23:00'],
    ['2025-12-22T10:30:00Z', '2025-12-22T11:30:00Z', 'Pacific/Auckland', 'Mon 22 Dec 23:30 – Tue 23 Dec 00:30'],
    ['2025-12-22T16:15:00Z', '2025-12-22T17:00:00Z', 'Europe/Lisbon', '16:15–17:00'],
    ['2025-12-22T10:15:00Z', '2025-12-22T11:00:00Z', 'Pacific/Auckland', '23:15–00:00'], // until midnight
    ['2025-12-22T11:15:00Z', '2025-12-22T12:00:00Z', 'Pacific/Auckland', 'Tue 23 Dec, 00:15–01:00'],
  ])('formatRangeUnder %s – %s in %s', (a, b, zone, expected) => {
    expect(formatRangeUnder(unix(a), unix(b), zone, 'Europe/Lisbon', 'en')).toBe(expected);
  });

  it.each([
    ['Europe/Lisbon', '2025-12-22T09:00:00Z', 'Lisbon (GMT+0)'],
    ['Europe/Lisbon', '2025-07-22T09:00:00Z', 'Lisbon (GMT+1)'],
    ['America/Sao_Paulo', '2025-07-22T09:00:00Z', 'Sao Paulo (GMT-3)'],
    ['Asia/Kolkata', '2025-07-22T09:00:00Z', 'Kolkata (GMT+5:30)'],
    ['America/Argentina/Buenos_Aires', '2025-07-22T09:00:00Z', 'Buenos Aires (GMT-3)'],
    ['UTC', '2025-07-22T09:00:00Z', 'UTC'],
    ['Bogus/Zone', '2025-07-22T09:00:00Z', 'UTC'],
  ])('zoneLabel(%s) at %s = %s', (zone, at, expected) => {
    expect(zoneLabel(zone, 'en', unix(at))).toBe(expected);
  });

  it('reuses Intl.DateTimeFormat instances', () => {
    const a = dateTimeFormat('Europe/Lisbon', 'pt', { hour: '2-digit' });
    expect(dateTimeFormat('Europe/Lisbon', 'pt', { hour: '2-digit' })).toBe(a);
    expect(dateTimeFormat('Asia/Tokyo', 'pt', { hour: '2-digit' })).not.toBe(a);
  });

  it('formats a 300-session page fast (cached formatters)', () => {
    const begin = unix('2025-12-22T09:00:00Z');
    const t0 = performance.now();
    for (let i = 0; i < 300; i++) {
      const t = begin + i * 900;
      formatRange(t, t + 2700, 'Europe/Lisbon', 'pt');
      dayKey(t, 'Europe/Lisbon');
    }
    expect(performance.now() - t0).toBeLessThan(250);
  });
});
