import { defineOperation } from '../../../kernel/table.ts';
import { recordChange } from '../../change/log.ts';
import { revokeToken } from '../magic.ts';

/**
 * Podium extension (issue 18): ends the token the call is made with, at once — the next call with it is
 * `401 tokenID is not valid or has expired`, and an open push.subscribe stream that rests on it ends
 * (the change it records is about the person: push/guard.ts asks about the token again). Idempotent: a
 * token already ended (or none) answers the same.
 */
export default defineOperation({
  name: 'person.signOut',
  summary: 'Ends the access token of the call (tokenID) at once; the same answer when it had already ended.',
  methods: ['POST'],
  params: {},
  auth: { kind: 'public' },
  // A token already ended is no error here: signing out twice answers the same.
  staleTokenIgnored: true,
  extension: true,
  writes: true,
  async handler(ctx) {
    if (!ctx.caller || ctx.sandbox) return [];
    const personID = await revokeToken(ctx.db, ctx.caller.tokenHash);
    if (personID !== undefined)
      await recordChange(ctx.db, {
        operation: 'person.signOut',
        kind: 'person',
        eventID: ctx.caller.scope === 'event' ? ctx.caller.targetID : null,
        objectID: personID,
      });
    return [];
  },
});
