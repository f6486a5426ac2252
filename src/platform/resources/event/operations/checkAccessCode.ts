import { z } from 'zod';
import { b, bOpt, defineOperation, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { issueGrant } from '../../../auth/grant.ts';
import { eventAccess } from '../../../auth/access.ts';
import { checkSolution, type SolutionCheck } from '../../../auth/altcha.ts';
import { oneAtATime } from '../../../limits/one-at-a-time.ts';
import { recordFailure } from '../access-code-failures.ts';
import { eventColumns } from '../repository.ts';
import { throttleAddress } from '../../../limits/address.ts';

/**
 * Wrong codes per event per client address per hour (then 429), and per event from everyone together
 * (then a solved challenge must come with each code: 428 without one). The event's budget never locks
 * anyone out: the right code with a solved challenge is always admitted.
 */
export const WRONG_PER_CLIENT = 20;
export const WRONG_PER_EVENT = 20;
const HOUR_MS = 3_600_000;

const CHALLENGE_NEEDED: Record<Exclude<SolutionCheck, 'ok'> | 'missing', string> = {
  missing: 'too many wrong codes for this event: solve event.accessCode.challenge and send the solution as altcha',
  invalid: 'the altcha solution is not valid: solve a new challenge',
  expired: 'the challenge has expired: solve a new one',
  otherEvent: 'the challenge is for another event: solve one for this event',
  used: 'the challenge solution was already used: solve a new challenge',
};

/**
 * Spec §4.2: tells whether an access code is correct (`correct` 1/0; `required` says whether the
 * event asks for one). Podium extensions: tokenID is optional, so anonymous visitors of a private
 * event's site can unlock it; a correct code returns a `grant` (signed, expires in 7 days) that the
 * public reads of a private event accept. Wrong codes are throttled so 1..9999 cannot be walked: 20
 * per address per hour (429), and 20 per event per hour from everyone, after which every code needs a
 * solved proof-of-work challenge (428 until it has one) — a cost per try instead of a lockout.
 */
export default defineOperation({
  name: 'event.checkAccessCode',
  summary:
    'Checks the access code of a private event (throttled: once 20 wrong codes were tried in an hour, each try needs a solved challenge).',
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
    altcha: bOpt(
      z.string().max(4000, 'must be at most 4000 characters'),
      'Podium extension: a solved challenge of event.accessCode.challenge for this event (the ALTCHA payload, base64), needed when the answer was 428; each is good for one try',
    ),
  },
  auth: { kind: 'public' },
  cors: true,
  writes: false,
  async handler(ctx, p) {
    const event = await eventColumns(ctx.db, p.eventID, ['eventID', 'accessCode', 'visible', 'public']);
    // An invisible event exists only for the people related to it (its admins may try its code).
    if (!event || (event.visible !== 1 && !(await eventAccess(ctx.db, ctx.caller, event.eventID))?.related))
      throw notFound('event');
    const clientKey = `code:${p.eventID}:${throttleAddress(ctx.clientIp)}`;
    const eventKey = `code:${p.eventID}`;
    // Read the budgets, decide, and spend them with no other try of this event in between.
    const { correct, challenged } = await oneAtATime(ctx.counter, eventKey, async () => {
      const [mine, all] = await Promise.all([ctx.counter.peek(clientKey), ctx.counter.peek(eventKey)]);
      if (mine.count >= WRONG_PER_CLIENT) {
        throw new ApiError(429, 'too many wrong access codes, try again later', {
          'Retry-After': String(Math.max(1, Math.ceil(mine.resetMs / 1000))),
        });
      }
      // Decided before the code is looked at, so the answer tells nothing about a code sent without one.
      const needsChallenge = all.count >= WRONG_PER_EVENT;
      if (needsChallenge) {
        const check =
          p.altcha === undefined
            ? 'missing'
            : await checkSolution(ctx.db, ctx.counter, p.altcha, event.eventID, ctx.now);
        if (check !== 'ok') throw new ApiError(428, CHALLENGE_NEEDED[check]);
      }
      const right = event.accessCode !== null && Number(p.accessCode) === event.accessCode;
      if (!right) await Promise.all([ctx.counter.hit(clientKey, HOUR_MS), ctx.counter.hit(eventKey, HOUR_MS)]);
      return { correct: right, challenged: needsChallenge };
    });
    if (!correct) await recordFailure(ctx.db, event.eventID, { nowMs: Date.now(), clientIp: ctx.clientIp, challenged });
    const grant = correct ? await issueGrant(ctx.db, event.eventID, ctx.now, event.accessCode) : '';
    return [{ eventID: event.eventID, correct: correct ? 1 : 0, required: event.public === 1 ? 0 : 1, grant }];
  },
});
