// The viewer's favourite sessions, per event, in localStorage (or any Storage). Missing or blocked
// storage (private mode, sandboxed iframes, quota) and corrupt values never throw: favourites just
// do not persist.

/** The storage key of one event's favourites. */
export function favouritesKey(eventID: number): string {
  return `podium:favourites:${eventID}`;
}

/** The activity IDs saved for this event; an empty set when nothing (valid) is stored. */
export function loadFavourites(storage: Pick<Storage, 'getItem'> | undefined | null, eventID: number): Set<number> {
  const out = new Set<number>();
  try {
    const raw = storage?.getItem(favouritesKey(eventID));
    if (!raw) return out;
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return out;
    for (const id of value) {
      const n = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
      if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) out.add(n);
    }
  } catch {
    // blocked storage or corrupt JSON: no favourites
  }
  return out;
}

/** Saves the set (sorted IDs as JSON; an empty set removes the key). Answers whether it was stored. */
export function saveFavourites(
  storage: (Pick<Storage, 'setItem'> & Partial<Pick<Storage, 'removeItem'>>) | undefined | null,
  eventID: number,
  set: ReadonlySet<number>,
): boolean {
  if (!storage) return false;
  try {
    const key = favouritesKey(eventID);
    if (set.size === 0 && storage.removeItem) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify([...set].sort((a, b) => a - b)));
    return true;
  } catch {
    return false;
  }
}

/** A new set with `activityID` added, or removed if it was there (the given set is not changed). */
export function toggleFavourite(set: ReadonlySet<number>, activityID: number): Set<number> {
  const next = new Set(set);
  if (next.has(activityID)) next.delete(activityID);
  else next.add(activityID);
  return next;
}
