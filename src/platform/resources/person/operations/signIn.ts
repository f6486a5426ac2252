import { z } from 'zod';
import { b, defineOperation, q, qOpt } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { ApiError } from '../../../errors.ts';
import { hashToken, verifyPassword } from '../../../auth/secrets.ts';
import { issueToken } from '../../attendee/enroll.ts';
import { findPersonByUsername } from '../repository.ts';
import { tokenRecord } from '../identity.ts';
import { eventPasswordHash } from '../repository.ts';
import { throttleAddress } from '../../../limits/address.ts';

/** Wrong passwords for one username from one address, per window. */
const WRONG_TRIES_PER_WINDOW = 10;
/**
 * Wrong passwords for one username from all addresses together, per window: guessing spread over many
 * addresses (a botnet gets 10 tries from each) meets this ceiling. While it holds, the person still gets
 * in through their mailbox: person.recover's code, which person.confirm exchanges for a token.
 */
const WRONG_TRIES_PER_USERNAME = 50;
const WRONG_WINDOW_MS = 15 * 60_000;

/** Spec §4.1, §5.2–5.4: a system token, or an event token when eventID and the event password are given. */
export default defineOperation({
  name: 'person.signIn',
  summary: 'Signs in and returns an access token record (spec §2.1).',
  methods: ['POST'],
  params: {
    username: q(text(320), 'login name (usually the e-mail)'),
    eventID: qOpt(id, 'selects event scope when the event password is given'),
    password: b(z.string().max(1000, 'must be at most 1000 characters'), 'system or event-scope password'),
  },
  auth: { kind: 'public' },
  // Not 401 for a token that is not valid: a client holding a stale token must still be able to sign in again.
  staleTokenIgnored: true,
  // Not run as a write transaction: checking a password takes tens of milliseconds of scrypt, and on
  // SQLite a write transaction holds the store for its whole length. The one insert honours sandbox.
  writes: false,
  async handler(ctx, p) {
    // Throttle guessing per username and address, and per username; success adds to neither count.
    // Unknown usernames are counted too, so the answers tell no one which usernames exist.
    const user = hashToken(p.username.toLowerCase());
    const throttleKey = `signin:${throttleAddress(ctx.clientIp)}:${user}`;
    const accountKey = `signin-user:${user}`;
    const [tried, triedAll] = await Promise.all([ctx.counter.peek(throttleKey), ctx.counter.peek(accountKey)]);
    if (tried.count >= WRONG_TRIES_PER_WINDOW)
      throw new ApiError(429, 'too many wrong passwords, try again later', {
        'Retry-After': String(Math.ceil(tried.resetMs / 1000)),
      });
    if (triedAll.count >= WRONG_TRIES_PER_USERNAME)
      throw new ApiError(
        429,
        'too many wrong passwords for this username, try again later or set a new one with person.recover',
        {
          'Retry-After': String(Math.ceil(triedAll.resetMs / 1000)),
        },
      );
    const person = await findPersonByUsername(ctx.db, p.username);
    let scope: 'system' | 'event' | undefined;
    let targetID = 0;
    if (person && p.eventID !== undefined) {
      const passwordHash = await eventPasswordHash(ctx.db, p.eventID, person.personID);
      if (passwordHash && (await verifyPassword(p.password, passwordHash))) {
        scope = 'event';
        targetID = p.eventID;
      }
    }
    // Spec §5.4: with eventID but the system password, the token is a system one.
    if (!scope && person?.passwordHash && (await verifyPassword(p.password, person.passwordHash))) scope = 'system';
    if (!person || !scope) {
      await Promise.all([ctx.counter.hit(throttleKey, WRONG_WINDOW_MS), ctx.counter.hit(accountKey, WRONG_WINDOW_MS)]);
      throw new ApiError(401, 'wrong username or password');
    }

    const tokenID = await issueToken(ctx, person.personID, scope, targetID);
    return [tokenRecord(person, { tokenID, scope, targetID }, ctx.now)];
  },
});
