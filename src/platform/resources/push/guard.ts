import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ChangeRow } from '../change/log.ts';
import type { StreamGuard } from '../../stream/hub.ts';
import { callerOfHash, type Caller } from '../../auth/caller.ts';
import { eventAccess } from '../../auth/access.ts';
import { grantExpiry } from '../../auth/grant.ts';
import type { Audience } from './view.ts';

// What a push.subscribe stream's right to hear rests on, while it is open (the hub's StreamGuard): a
// grant runs out (GRANT_TTL_SECONDS after event.checkAccessCode), a token runs out or is revoked
// (person.confirm revokes a person's tokens, event.person.dismiss their event-scope ones), a member
// stops being related to the event. Expiry is found by the hub's shared timer; a revocation by the
// change of the write that made it — a write about the person (its kind `person` or `….person`) — after
// which the token and the relation are read again. Streams that rest on neither (a public event heard
// as public) have no guard: the view re-checks the event itself at each of its changes.

/** A write about a person: it may have revoked their tokens or ended their relation to the event. */
const aboutPerson = (change: ChangeRow, personID: number) =>
  change.objectID === personID && (change.kind === 'person' || change.kind.endsWith('.person'));

export function pushGuard(
  db: Kysely<DB>,
  eventID: number,
  audience: Audience,
  /** The grant it was let in with, for the `grant` audience. */
  grant: string | undefined,
  /** The caller, when its token is what it hears with: the `member` audience, or chat/send (its own). */
  caller: Caller | undefined,
): StreamGuard | undefined {
  const grantEnds = audience === 'grant' && grant !== undefined ? grantExpiry(grant) : Infinity;
  const tokenEnds = caller ? caller.expiresAt : Infinity;
  if (grantEnds === Infinity && tokenEnds === Infinity) return undefined;
  return {
    expiresAt: Math.min(grantEnds, tokenEnds) * 1000,
    concerns: (change) => caller !== undefined && aboutPerson(change, caller.personID),
    async holds() {
      if (!caller) return true;
      const now = await callerOfHash(db, caller.tokenHash, Math.floor(Date.now() / 1000));
      if (!now) return false;
      return audience !== 'member' || (await eventAccess(db, now, eventID))?.related === true;
    },
  };
}
