// The visitor's choice between the event's time zone and their own ("My time"), shared by the schedule
// and the session pages: `tz=local` in the URL wins, then the choice remembered in localStorage. Blocked
// storage never throws (the choice is just not remembered).

export type ZoneMode = 'event' | 'local';

/** The storage key of the choice (one for every event: it is about the visitor, not the event). */
export const ZONE_KEY = 'podium:tz';

/** The mode a page opens in: the URL's `tz` when given, else the remembered choice, else the event's. */
export function chosenZoneMode(
  params: URLSearchParams,
  storage: Pick<Storage, 'getItem'> | undefined | null,
): ZoneMode {
  const fromUrl = params.get('tz');
  if (fromUrl === 'local' || fromUrl === 'event') return fromUrl;
  try {
    return storage?.getItem(ZONE_KEY) === 'local' ? 'local' : 'event';
  } catch {
    return 'event';
  }
}

/** Remembers the choice; answers whether it was stored. */
export function rememberZoneMode(storage: Pick<Storage, 'setItem'> | undefined | null, mode: ZoneMode): boolean {
  try {
    storage?.setItem(ZONE_KEY, mode);
    return storage !== undefined && storage !== null;
  } catch {
    return false;
  }
}
