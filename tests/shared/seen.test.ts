// The last changelog version a visitor saw (src/shared/schedule/seen.ts): what "N changes since your
// last visit" counts from. Missing, corrupt or blocked storage reads as a first visit and never throws.
import { describe, expect, it } from 'vitest';
import { changesOfSaved, loadSeen, saveSeen, seenKey } from '../../src/shared/schedule/seen.ts';

const memory = (initial: Record<string, string> = {}) => {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
};
const blocked = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
};

describe('seen versions', () => {
  it('keys by event next to the favourites', () => expect(seenKey(7)).toBe('podium:seen:7'));

  it.each([
    [{}, undefined],
    [{ 'podium:seen:7': '12' }, 12],
    [{ 'podium:seen:7': '0' }, 0],
    [{ 'podium:seen:7': 'x' }, undefined],
    [{ 'podium:seen:7': '-3' }, undefined],
    [{ 'podium:seen:8': '5' }, undefined],
  ])('%j reads as %s', (stored, expected) => expect(loadSeen(memory(stored), 7)).toBe(expected));

  it('saves, and blocked or missing storage neither throws nor remembers', () => {
    const m = memory();
    saveSeen(m, 7, 42);
    expect(loadSeen(m, 7)).toBe(42);
    expect(() => saveSeen(blocked, 7, 1)).not.toThrow();
    expect(loadSeen(blocked, 7)).toBeUndefined();
    expect(loadSeen(undefined, 7)).toBeUndefined();
  });

  it('counts only the changes of saved sessions', () => {
    const rows = [{ activityID: '1' }, { activityID: '2' }, { activityID: '1' }, { activityID: '9' }];
    expect(changesOfSaved(rows, new Set([1, 9]))).toBe(3);
    expect(changesOfSaved(rows, new Set())).toBe(0);
  });
});
