import { atom, type WritableAtom } from 'nanostores';
import {
  favouritesKey,
  loadFavourites,
  saveFavourites,
  toggleFavourite,
} from '../../../src/shared/schedule/favourites.ts';
import { shared } from '../internal/registry.ts';
import { storage } from '../internal/storage.ts';

// The visitor's favourite sessions of an event: one store per event for the whole page (two agendas of
// one event star together), kept in localStorage with the site's own key and format, and followed across
// tabs through the storage event.

const stores = shared('favourites', () => new Map<number, WritableAtom<Set<number>>>());

export function favouritesOf(eventID: number): WritableAtom<Set<number>> {
  let $favs = stores.get(eventID);
  if (!$favs) {
    $favs = atom(loadFavourites(storage('localStorage'), eventID));
    stores.set(eventID, $favs);
    const store = $favs;
    globalThis.addEventListener?.('storage', (e) => {
      if (e.key === favouritesKey(eventID)) store.set(loadFavourites(storage('localStorage'), eventID));
    });
  }
  return $favs;
}

/** Stars or unstars a session; answers whether it is a favourite now and whether that was saved. */
export function toggle(eventID: number, activityID: number): { favourite: boolean; saved: boolean } {
  const $favs = favouritesOf(eventID);
  const next = toggleFavourite($favs.get(), activityID);
  $favs.set(next);
  return { favourite: next.has(activityID), saved: saveFavourites(storage('localStorage'), eventID, next) };
}
