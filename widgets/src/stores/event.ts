import { call, PodiumApiError, apiBase } from '../internal/api.ts';
import { shared } from '../internal/registry.ts';

// The event a widget's `event` attribute names — an ID, or `company/event` (namespace/nickname) — read
// once per page with event.get (a private event answers its gate shape: enough to know it is private and
// its time zone), shared by every widget naming it.

/** event.get's row (these are the fields the widgets read). */
export interface EventInfo {
  eventID: number;
  name: string;
  timezone: string;
  language: string;
  /** false: a private event, readable with the grant of its access code. */
  isPublic: boolean;
}

const events = shared('events', () => new Map<string, Promise<EventInfo>>());

/** `123` → { eventID }, `demo/summit` → { namespace, nickname }; undefined when it is neither. */
export function parseEventRef(ref: string): Record<string, string> | undefined {
  const v = ref.trim();
  if (/^[1-9]\d{0,14}$/.test(v)) return { eventID: v };
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(v);
  return m ? { namespace: m[1], nickname: m[2] } : undefined;
}

/** The event named by `ref` on `api` (cached for the page; a failure is not cached). */
export function resolveEvent(api: string, ref: string): Promise<EventInfo> {
  const key = `${apiBase(api)}|${ref.trim()}`;
  let info = events.get(key);
  if (!info) {
    const query = api ? parseEventRef(ref) : undefined;
    info = query
      ? call(api, 'event.get', query).then(
          ([row]) => ({ ...row, eventID: +(row.eventID as string), isPublic: row.public !== '0' }) as EventInfo,
        )
      : Promise.reject(new PodiumApiError(400, 'api and event (an ID or company/event) are required'));
    events.set(key, info);
    info.catch(() => events.delete(key));
  }
  return info;
}
