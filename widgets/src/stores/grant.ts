import { atom } from 'nanostores';
import { shared } from '../internal/registry.ts';
import { readJson, writeJson } from '../internal/storage.ts';
import { apiBase } from '../internal/api.ts';

// The grants of private events (what event.checkAccessCode answers for the right code), page-wide: an
// access gate writes one, every Podium widget of that event reads it. Kept for the visit in
// sessionStorage, so a reload does not ask for the code again; never in localStorage.

const KEY = 'podium:grants';

/** Grants by `<api base>|<eventID>`. */
export const $grants = shared('grants', () => atom<Record<string, string>>(readJson('sessionStorage', KEY) ?? {}));

const keyOf = (api: string, eventID: number): string => `${apiBase(api)}|${eventID}`;

/** The grant of this event, '' when none. */
export const grantOf = (api: string, eventID: number): string => $grants.get()[keyOf(api, eventID)] ?? '';

/** Gives (or, with '', drops) the grant of an event to every widget on the page. */
export function setGrant(api: string, eventID: number, grant: string): void {
  const next = { ...$grants.get(), [keyOf(api, eventID)]: grant };
  if (!grant) delete next[keyOf(api, eventID)];
  writeJson('sessionStorage', KEY, next);
  $grants.set(next);
}
