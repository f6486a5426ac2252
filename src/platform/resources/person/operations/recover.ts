import { b, defineOperation } from '../../../kernel/table.ts';
import { email } from '../../../schemas.ts';
import { ApiError } from '../../../errors.ts';
import { hashToken } from '../../../auth/secrets.ts';
import { findPersonByEmail } from '../repository.ts';
import { requestRecovery } from '../recovery.ts';
import { throttleAddress } from '../../../limits/address.ts';

const HOUR_MS = 3_600_000;
/** Links asked for one address, and from one client, per hour: enough for a person, not for a flood. */
const PER_ADDRESS = 3;
const PER_CLIENT = 10;

/**
 * Podium extension: sends a one-time link to the address that lets its owner set the system password
 * (person.confirm). The proof is the mailbox: nothing is answered about whether the address is known,
 * and the answer is the same either way. The message is a durable job added with the request (see
 * recovery.ts): a worker makes the code and writes it (an .eml file under MAIL_DIR until a mail transport
 * lands), so the answer does not wait for the mail.
 */
export default defineOperation({
  name: 'person.recover',
  summary: 'Sends a one-time link to set the password to the e-mail address (answers the same for any address).',
  methods: ['POST'],
  params: { email: b(email, 'the e-mail address of the account') },
  auth: { kind: 'public' },
  // Not 401 for a token that is not valid: a client holding a stale token must still reach the way to a new password.
  staleTokenIgnored: true,
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const address = p.email.toLowerCase();
    // A sandbox call sends nothing and writes nothing, so it spends no allowance either.
    const keys = ctx.sandbox ? [] : [`recover:${throttleAddress(ctx.clientIp)}`, `recover:${hashToken(address)}`];
    const [client, mailbox] = await Promise.all(keys.map((k) => ctx.counter.hit(k, HOUR_MS)));
    const spent =
      client && client.count > PER_CLIENT ? client : mailbox && mailbox.count > PER_ADDRESS ? mailbox : undefined;
    if (spent)
      throw new ApiError(429, 'too many links asked for, try again later', {
        'Retry-After': String(Math.max(1, Math.ceil(spent.resetMs / 1000))),
      });
    const person = await findPersonByEmail(ctx.db, address);
    if (person && !ctx.sandbox) await requestRecovery(ctx.db, ctx.jobs, person.personID, ctx.now);
    return [{ email: address, sent: 1 }];
  },
});
