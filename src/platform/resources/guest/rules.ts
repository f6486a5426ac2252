import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ApiError, conflict, notFound } from '../../errors.ts';
import { lockRow, eventPersonOf } from '../rows.ts';
import { CLOSED_MESSAGES } from '../form/settings.ts';
import { guestCount, guestOf, insertGuest, placesTaken, type GuestRow } from './repository.ts';

// Guests (docs/api/guests.md): an approved attendee (the host) brings up to the event's
// guestsForMember guests; each takes a place of the event's capacity.

/** Who acts: the token's person, and whether they may act for any host (event admins). */
export interface Actor {
  readonly personID: number;
  readonly admin: boolean;
}

/**
 * The host a call names (Q hostID, default: the token's person). Someone else's needs an event admin:
 * for anyone else another attendee's guests are what missing ones are (404).
 */
export function hostOf(actor: Actor, hostID: number | undefined, what: 'person' | 'guest'): number {
  const host = hostID ?? actor.personID;
  if (host !== actor.personID && !actor.admin) throw notFound(what);
  return host;
}

/**
 * A guest of the event as the actor may see it: an admin any, anyone else only their own; a hostID
 * given must be the guest's host. Everything else is 404, the answer of a guest that does not exist.
 */
export async function guestFor(
  db: Kysely<DB>,
  eventID: number,
  guestID: number,
  actor: Actor,
  hostID: number | undefined,
  readAll = actor.admin,
): Promise<GuestRow> {
  const guest = await guestOf(db, eventID, guestID);
  if (!guest) throw notFound('guest');
  if (hostID !== undefined && guest.hostID !== hostID) throw notFound('guest');
  if (!readAll && guest.hostID !== actor.personID) throw notFound('guest');
  return guest;
}

/**
 * Adds a guest of `hostID`, in the call's transaction: the host must be an approved attendee, the
 * event must allow guests (guestsForMember > 0) and the host have fewer than that many, and the event
 * a free place (capacity counts approved attendees and guests). Serialized on the event's row.
 */
export async function addGuest(
  db: Kysely<DB>,
  eventID: number,
  hostID: number,
  guest: { name: string; email: string },
  now: number,
): Promise<GuestRow> {
  await lockRow(db, 'event', eventID);
  const host = await eventPersonOf(db, eventID, hostID).select('approved').executeTakeFirst();
  if (!host) throw notFound('person');
  const event = await db
    .selectFrom('event')
    .select(['capacity', 'guestsForMember'])
    .where('eventID', '=', eventID)
    .executeTakeFirstOrThrow();
  if (event.guestsForMember === 0) throw new ApiError(403, 'this event does not allow guests');
  if (host.approved !== 1) throw conflict('only approved attendees may bring guests');
  if ((await guestCount(db, eventID, hostID)) >= event.guestsForMember)
    throw conflict(`an attendee may bring at most ${event.guestsForMember} guests to this event`);
  if (event.capacity > 0 && (await placesTaken(db, eventID, event.capacity)) >= event.capacity)
    throw conflict(`${CLOSED_MESSAGES.full}: no place left for a guest`);
  return insertGuest(db, { eventID, hostID, name: guest.name, email: guest.email, dateCreated: now });
}
