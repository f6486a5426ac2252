// Solves the proof-of-work challenge of an access-code gate (event.accessCode.challenge) in the browser,
// for the site's gate page and the gate widget: ALTCHA's own solver with the Web Crypto key derivation
// (crypto.subtle PBKDF2, native and off the main thread's JavaScript), no worker, no eval, no third party
// contacted — safe under a strict CSP with Trusted Types.
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

/**
 * The `altcha` of event.checkAccessCode for the `challenge` (the JSON string the platform gave): base64
 * of ALTCHA's `{ challenge, solution }`. Rejects when it cannot be solved in `timeoutMs`.
 */
export async function solveAltcha(challenge: string, timeoutMs = 60_000): Promise<string> {
  const parsed = JSON.parse(challenge) as Challenge;
  const solution = await solveChallenge({ challenge: parsed, deriveKey, timeout: timeoutMs });
  if (!solution) throw new Error('the challenge was not solved in time');
  return btoa(JSON.stringify({ challenge: parsed, solution }));
}
