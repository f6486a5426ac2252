import { atom, type ReadableAtom } from 'nanostores';
import type { PodiumApiError } from '../internal/api.ts';
import { shared } from '../internal/registry.ts';
import { $grants, grantOf, setGrant } from './grant.ts';
import type { EventInfo } from './event.ts';

/** The state of a public read: `locked` = a private event whose grant is missing (or no longer valid). */
export interface Read<T> {
  status: 'loading' | 'ready' | 'locked' | 'error';
  data?: T;
  error?: PodiumApiError;
}

export interface ReadStore<T> extends ReadableAtom<Read<T>> {
  /** Loads again (a "try again" button). */
  reload(): void;
}

const reads = shared('reads', () => new Map<string, ReadStore<unknown>>());

/**
 * A page-wide store of one public read of one event (e.g. its program), shared by every widget showing
 * it: loaded when first asked for, with the event's grant, and again whenever that grant changes (an
 * access gate unlocked the event). A 403 means the grant is missing or expired: the grant is dropped and
 * the read is `locked` until a gate gives a new one.
 */
export function eventRead<T>(
  name: string,
  api: string,
  event: EventInfo,
  load: (grant: string) => Promise<T>,
): ReadStore<T> {
  const { eventID } = event;
  const key = `${name}|${api}|${eventID}`;
  let $read = reads.get(key) as ReadStore<T> | undefined;
  if (!$read) {
    const store = atom<Read<T>>({ status: 'loading' });
    let used: string;
    let seq = 0;
    const run = () => {
      const grant = (used = grantOf(api, eventID));
      const n = ++seq;
      // A private event without a grant: no call (its 403 would be an error in the page's console).
      if (!event.isPublic && !grant) return store.set({ status: 'locked' });
      store.set({ status: 'loading', data: store.get().data });
      load(grant).then(
        (data) => n === seq && store.set({ status: 'ready', data }),
        (error: PodiumApiError) => {
          if (n !== seq) return;
          used = '';
          if (error.status === 403 && grant) setGrant(api, eventID, '');
          store.set({ status: error.status === 403 ? 'locked' : 'error', error });
        },
      );
    };
    reads.set(key, ($read = Object.assign(store, { reload: run })));
    $grants.listen(() => grantOf(api, eventID) !== used && run());
    run();
  }
  return $read;
}
