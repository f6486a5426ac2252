// The last version of an event's program changelog a visitor saw, per event, in localStorage next to
// their favourites (favourites.ts): on the next visit, the changes after it that touch a saved
// session are "N changes since your last visit". Blocked storage or a corrupt value never throws: the
// visitor is then treated as new (no notice).

/** The storage key of one event's last seen changelog version. */
export function seenKey(eventID: number): string {
  return `podium:seen:${eventID}`;
}

/** The version last seen, or undefined for a first visit (or unreadable storage). */
export function loadSeen(storage: Pick<Storage, 'getItem'> | undefined | null, eventID: number): number | undefined {
  try {
    const raw = storage?.getItem(seenKey(eventID));
    return raw && /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
  } catch {
    return undefined;
  }
}

export function saveSeen(storage: Pick<Storage, 'setItem'> | undefined | null, eventID: number, version: number): void {
  try {
    storage?.setItem(seenKey(eventID), String(version));
  } catch {
    // blocked storage: the notice just cannot remember
  }
}

/** How many of `changes` (rows of activity.changes) touch one of the saved sessions. */
export function changesOfSaved(changes: readonly { activityID: string }[], saved: ReadonlySet<number>): number {
  return changes.filter((c) => saved.has(Number(c.activityID))).length;
}
