import { z } from 'zod';
import { b, defineOperation, q } from '../../table.ts';
import { id } from '../../schemas.ts';
import { ApiError, notFound } from '../../errors.ts';
import { issueGrant } from '../../auth/grant.ts';
import { eventAccess } from '../../auth/access.ts';

/** Wrong codes allowed per event per client address per hour, and per event from everyone. */
export const WRONG_PER_CLIENT = 20;
export const WRONG_PER_EVENT = 500;
const HOUR_MS = 3_600_000;

/**
 * Spec §4.2: tells whether an access code is correct (`correct` 1/0; `required` says whether the
 * event asks for one). Podium extensions: tokenID is optional, so anonymous visitors of a private
 * event's site can unlock it; a correct code returns a `grant` (signed, expires in 7 days) that the
 * public reads of a private event accept. Wrong codes are throttled so 1..9999 cannot be walked.
 */
export default defineOperation({
  name: 'event.checkAccessCode',
  summary: 'Checks the access code of a private event (throttled).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    accessCode: b(
      z
        .string()
        .regex(/^\d{1,4}$/, 'must be an integer from 1 to 9999')
        .refine((v) => Number(v) >= 1, 'must be an integer from 1 to 9999'),
      'the code, 1..9999',
    ),
  },
  auth: { kind: 'public' },
  cors: true,
  writes: false,
  async handler(ctx, p) {
    const event = await ctx.db
      .selectFrom('event')
      .select(['eventID', 'accessCode', 'visible', 'public'])
      .where('eventID', '=', p.eventID)
      .executeTakeFirst();
    // An invisible event exists only for the people related to it (its admins may try its code).
    if (!event || (event.visible !== 1 && !(await eventAccess(ctx.db, ctx.caller, event.eventID))?.related))
      throw notFound('event');
    const clientKey = `code:${p.eventID}:${ctx.clientIp}`;
    const eventKey = `code:${p.eventID}`;
    const [mine, all] = await Promise.all([ctx.counter.peek(clientKey), ctx.counter.peek(eventKey)]);
    const blocked = mine.count >= WRONG_PER_CLIENT ? mine : all.count >= WRONG_PER_EVENT ? all : undefined;
    if (blocked) {
      throw new ApiError(429, 'too many wrong access codes, try again later', {
        'Retry-After': String(Math.max(1, Math.ceil(blocked.resetMs / 1000))),
      });
    }
    const correct = event.accessCode !== null && Number(p.accessCode) === event.accessCode;
    if (!correct) await Promise.all([ctx.counter.hit(clientKey, HOUR_MS), ctx.counter.hit(eventKey, HOUR_MS)]);
    const grant = correct ? await issueGrant(ctx.db, event.eventID, ctx.now) : '';
    return [{ eventID: event.eventID, correct: correct ? 1 : 0, required: event.public === 1 ? 0 : 1, grant }];
  },
});
