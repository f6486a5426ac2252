import { defineOperation, q } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { notFound } from '../../../../errors.ts';
import { eventAccess } from '../../../../auth/access.ts';
import { newChallenge } from '../../../../auth/altcha.ts';
import { eventColumns } from '../../repository.ts';

/**
 * Podium extension: a proof-of-work challenge for the access-code gate of an event. Once the event's
 * budget of wrong codes is spent, event.checkAccessCode answers 428 and evaluates a code only with a
 * solved challenge (its `altcha`): about a second of a phone's work per try, so a visitor with the right
 * code always gets in and a walk of the code space costs real time. The challenge is ALTCHA's (v2,
 * PBKDF2/SHA-256), signed, for this event only, good for one try within 10 minutes.
 */
export default defineOperation({
  name: 'event.accessCode.challenge',
  summary: 'Gives a proof-of-work challenge (ALTCHA) to solve before event.checkAccessCode when it answers 428.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event') },
  auth: { kind: 'public' },
  extension: true,
  cors: true,
  writes: false,
  async handler(ctx, p) {
    const event = await eventColumns(ctx.db, p.eventID, ['eventID', 'visible']);
    // The same rule as event.checkAccessCode: an invisible event exists only for the people related to it.
    if (!event || (event.visible !== 1 && !(await eventAccess(ctx.db, ctx.caller, event.eventID))?.related))
      throw notFound('event');
    const { challenge, expires } = await newChallenge(ctx.db, event.eventID, ctx.now);
    return [{ eventID: event.eventID, challenge, expires }];
  },
});
