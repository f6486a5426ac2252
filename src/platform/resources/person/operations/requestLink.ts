import { z } from 'zod';
import { b, bOpt, defineOperation, q } from '../../../kernel/table.ts';
import { email, id } from '../../../schemas.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { hashToken } from '../../../auth/secrets.ts';
import { eventGateByID } from '../../event/repository.ts';
import { attendeeByEmail, queueLinkMail } from '../magic.ts';
import { throttleAddress } from '../../../limits/address.ts';

const HOUR_MS = 3_600_000;

/**
 * A path of the event's site, relative to the event (`/schedule`, `/activity/12`): the site puts it
 * after the event's address and checks it again, so a link can lead nowhere else.
 */
const sitePath = z
  .string()
  .max(500, 'must be at most 500 characters')
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  .regex(/^\/(?![/\\])[^\\\s\x00-\x1f\x7f]*$/, "must be a path of the event's site, such as /schedule");

/**
 * Podium extension (issue 18, spec §5.5): mails an attendee of the event a one-time link to their
 * "My registration" page, which person.signInLink exchanges for an event-scope token. The proof is the
 * mailbox: the answer is the same whether or not the address is an attendee's, and so is the work (a
 * durable job is added either way; only the job, later, looks at whom it is for).
 */
export default defineOperation({
  name: 'person.requestLink',
  summary:
    'Mails an attendee a one-time sign-in link for the event (answers the same for any address; docs/api/magic-links.md).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    // Spaces around the address (pasted from a mail) are no mistake: trimmed, then checked.
    email: b(z.string().trim().pipe(email), 'the e-mail address the attendee registered with'),
    lang: bOpt(z.enum(['en', 'pt', 'es'], 'must be en, pt or es'), "the e-mail's language (default: the attendee's)"),
    next: bOpt(
      sitePath,
      "the page of the event's site the link leads back to once signed in (default: My registration)",
    ),
  },
  auth: { kind: 'public' },
  // Not 401 for a token that is not valid: a stale token is exactly why a link is asked for.
  staleTokenIgnored: true,
  extension: true,
  writes: true,
  cors: true,
  async handler(ctx, p) {
    const given = p.email.trim();
    const address = given.toLowerCase();
    const event = await eventGateByID(ctx.db, p.eventID);
    if (!event || event.visible !== 1 || event.isTemplate === 1) throw notFound('event');
    // A sandbox call sends nothing and writes nothing, so it spends no allowance either.
    const keys = ctx.sandbox ? [] : [`link:${throttleAddress(ctx.clientIp)}`, `link:${hashToken(address)}`];
    const [client, mailbox] = await Promise.all(keys.map((k) => ctx.counter.hit(k, HOUR_MS)));
    const spent =
      client && client.count > ctx.config.MAGIC_LINK_PER_CLIENT_HOUR
        ? client
        : mailbox && mailbox.count > ctx.config.MAGIC_LINK_PER_EMAIL_HOUR
          ? mailbox
          : undefined;
    if (spent)
      throw new ApiError(429, 'too many links asked for, try again later', {
        'Retry-After': String(Math.max(1, Math.ceil(spent.resetMs / 1000))),
      });
    const personID = await attendeeByEmail(ctx.db, p.eventID, address);
    if (!ctx.sandbox) await queueLinkMail(ctx.db, ctx.jobs, p.eventID, personID, p.lang ?? '', p.next ?? '');
    return [{ eventID: p.eventID, email: given }];
  },
});
