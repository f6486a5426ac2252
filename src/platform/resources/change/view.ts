import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DB } from '../../db/schema.ts';
import { touchesPublic, type ChangeRow } from './log.ts';
import { isOpenEvent } from '../event/repository.ts';
import type { StreamView } from '../../stream/hub.ts';
import { changeMessageWire } from '../../../shared/wire/change.ts';

// What anyone may hear of the change log (change.subscribe): that something changed in a company, and
// in which event when the event is open to anyone. Nothing else (no operation, no object, no person):
// enough for a site or a CDN to drop what it kept, nothing about a private event or a person.

/** The message data of one change, or undefined when it touches nothing public (a person's own profile, a chat message). */
export interface PublicChange {
  readonly changeID: number;
  readonly companyID: number;
  readonly eventID: number | undefined;
}

/** Events whose openness a write may change: a change of one of these kinds asks the store again. */
const EVENT_KINDS = new Set(['event', 'company.event']);
const MAX_KNOWN = 10_000;

/** The public view of changes on `db`, remembering each event's openness until a change of the event's own. */
export function publicChanges(db: Kysely<DB>): (change: ChangeRow) => Promise<PublicChange | undefined> {
  const open = new LRUCache<number, boolean>({ max: MAX_KNOWN });
  return async (change) => {
    if (change.companyID === null || !touchesPublic(change)) return undefined;
    let eventID: number | undefined;
    if (change.eventID !== null) {
      if (EVENT_KINDS.has(change.kind)) open.delete(change.eventID);
      let known = open.get(change.eventID);
      if (known === undefined) {
        known = await isOpenEvent(db, change.eventID);
        open.set(change.eventID, known);
      }
      if (known) eventID = change.eventID;
    }
    return { changeID: change.changeID, companyID: change.companyID, eventID };
  };
}

/** One view per store, shared by every stream of the process: each change is looked at once. */
const views = new WeakMap<Kysely<DB>, StreamView>();

/** The stream view of change.subscribe: a `change` message per public change. */
export function publicChangeView(db: Kysely<DB>): StreamView {
  let view = views.get(db);
  if (!view) {
    const of = publicChanges(db);
    view = {
      name: 'change.subscribe',
      async message(change) {
        const c = await of(change);
        if (!c) return undefined;
        const data = { changeID: String(c.changeID), companyID: String(c.companyID), eventID: String(c.eventID ?? '') };
        return { id: c.changeID, event: 'change', data: changeMessageWire.parse(data) };
      },
    };
    views.set(db, view);
  }
  return view;
}
