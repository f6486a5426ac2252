import { createHmac, randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import { createChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { DB } from '../db/schema.ts';
import type { Counter } from '../limits/counter.ts';
import { storedSecret } from './grant.ts';

// The proof of work an access-code gate asks for once an event's budget of wrong codes is spent
// (event.accessCode.challenge, event.checkAccessCode's `altcha`): ALTCHA's current protocol (v2), made
// and verified by altcha-lib. PBKDF2 rather than plain SHA-256 because browsers run it natively
// (crypto.subtle), so a phone is not much slower per try than an attacker's server.

/**
 * The work: the solver derives PBKDF2/SHA-256 keys (`cost` rounds each) for counters 0, 1, 2, … until
 * one matches the signed prefix; the server picks that counter at random in [COUNTER_MIN, COUNTER_MAX]
 * (deterministic mode), so every visitor does about the same work: 0.3 s on average in desktop
 * Chromium, about a second on a mid-range phone, 0.3 s of one server core.
 */
export const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';
export const CHALLENGE_COST = 5000;
const COUNTER_MIN = 150;
const COUNTER_MAX = 450;
/** A challenge must be solved and used within this time. */
export const CHALLENGE_TTL_SECONDS = 600;

/** The two HMAC secrets altcha-lib signs with (the challenge, and the expected key): from one stored secret. */
async function secrets(db: Kysely<DB>) {
  const secret = await storedSecret(db, 'altchaSecret');
  const derive = (label: string) => createHmac('sha256', secret).update(label).digest('base64url');
  return { hmacSignatureSecret: derive('altcha challenge'), hmacKeySignatureSecret: derive('altcha key') };
}

/** A new challenge for the gate of `eventID` (named inside the signed parameters), as ALTCHA's JSON. */
export async function newChallenge(db: Kysely<DB>, eventID: number, now: number) {
  const expires = now + CHALLENGE_TTL_SECONDS;
  const challenge = await createChallenge({
    algorithm: CHALLENGE_ALGORITHM,
    cost: CHALLENGE_COST,
    counter: randomInt(COUNTER_MIN, COUNTER_MAX + 1),
    deriveKey,
    data: { eventID },
    expiresAt: expires,
    ...(await secrets(db)),
  });
  return { challenge: JSON.stringify(challenge), expires };
}

/** ALTCHA's payload as its widget submits it: base64 of `{ challenge, solution }`. */
const payloadSchema = z.object({
  challenge: z.object({
    // Every parameter is signed, so they are kept exactly as sent.
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      expiresAt: z.number(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    }),
    signature: z.string().max(200),
  }),
  solution: z.looseObject({ counter: z.number(), derivedKey: z.string().max(200) }),
});

export type SolutionCheck = 'ok' | 'invalid' | 'expired' | 'otherEvent' | 'used';

/**
 * Whether `altcha` is a solved challenge of this event's gate, unexpired and never used before; a
 * good one is marked used (in the rate-limit counter, shared by every process through Redis, kept
 * until the challenge expires), so each solution admits one evaluation of one code.
 */
export async function checkSolution(
  db: Kysely<DB>,
  counter: Counter,
  altcha: string,
  eventID: number,
  now: number,
): Promise<SolutionCheck> {
  let payload: z.infer<typeof payloadSchema>;
  try {
    payload = payloadSchema.parse(JSON.parse(Buffer.from(altcha, 'base64').toString('utf8')));
  } catch {
    return 'invalid';
  }
  const { parameters, signature } = payload.challenge;
  let verified: Awaited<ReturnType<typeof verifySolution>>;
  try {
    verified = await verifySolution({
      challenge: payload.challenge satisfies Challenge,
      solution: { counter: payload.solution.counter, derivedKey: payload.solution.derivedKey },
      deriveKey,
      ...(await secrets(db)),
    });
  } catch {
    return 'invalid';
  }
  // The library reads the wall clock; the platform's own `now` decides too.
  if (verified.expired || parameters.expiresAt <= now) return 'expired';
  if (!verified.verified) return 'invalid';
  if (parameters.data.eventID !== eventID) return 'otherEvent';
  const ttlMs = (parameters.expiresAt - now + 60) * 1000;
  const { count } = await counter.hit(`altcha:${signature}`, ttlMs);
  return count === 1 ? 'ok' : 'used';
}
