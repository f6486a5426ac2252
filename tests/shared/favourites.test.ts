import { describe, expect, it } from 'vitest';
import {
  favouritesKey,
  loadFavourites,
  saveFavourites,
  toggleFavourite,
} from '../../src/shared/schedule/favourites.ts';

function memory(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const blocked = {
  getItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('full', 'QuotaExceededError');
  },
};

describe('favourites', () => {
  it('keys per event', () => {
    expect(favouritesKey(7)).toBe('podium:favourites:7');
  });

  it('saves and loads', () => {
    const storage = memory();
    expect(saveFavourites(storage, 7, new Set([30, 4]))).toBe(true);
    expect(storage.data.get('podium:favourites:7')).toBe('[4,30]');
    expect(loadFavourites(storage, 7)).toEqual(new Set([4, 30]));
    expect(loadFavourites(storage, 8)).toEqual(new Set());
    expect(saveFavourites(storage, 7, new Set())).toBe(true);
    expect(storage.data.has('podium:favourites:7')).toBe(false);
  });

  it.each([
    ['not JSON', '{nope', []],
    ['not a list', '{"a":1}', []],
    ['null', 'null', []],
    ['mixed junk', '[1, "2", "x", -3, 0, 1.5, null, {}, 1e300, 4]', [1, 2, 4]],
  ])('tolerates %s', (_, raw, expected) => {
    expect([...loadFavourites(memory({ 'podium:favourites:1': raw }), 1)]).toEqual(expected);
  });

  it('tolerates missing and blocked storage', () => {
    expect(loadFavourites(undefined, 1)).toEqual(new Set());
    expect(loadFavourites(blocked, 1)).toEqual(new Set());
    expect(saveFavourites(undefined, 1, new Set([1]))).toBe(false);
    expect(saveFavourites(blocked, 1, new Set([1]))).toBe(false);
  });

  it('toggles without changing the given set', () => {
    const a = new Set([1]);
    const b = toggleFavourite(a, 2);
    expect([...b]).toEqual([1, 2]);
    expect([...toggleFavourite(b, 1)]).toEqual([2]);
    expect([...a]).toEqual([1]);
  });
});
