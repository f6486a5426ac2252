import { b, defineOperation, q } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { ApiError } from '../../../errors.ts';
import { signInLinkWire } from '../../../../shared/wire/person.ts';
import { issueGrant } from '../../../auth/grant.ts';
import { eventColumns } from '../../event/repository.ts';
import { issueToken } from '../../attendee/enroll.ts';
import { personByID } from '../repository.ts';
import { tokenRecord } from '../identity.ts';
import { spendLink } from '../magic.ts';
import { eventPersonOf } from '../../rows.ts';
import { throttleAddress } from '../../../limits/address.ts';

const WRONG_WINDOW_MS = 15 * 60_000;

/**
 * Podium extension (issue 18, spec §5.5): exchanges the code of an event magic link for an event-scope
 * token (spec §5.3: limited to the event, an Admin is a User there), answered as person.signIn answers
 * (spec §2.1), with a `grant` of a private event (the attendee has what its access code proves). The
 * code works once, before it expires (MAGIC_LINK_TTL), for its own event only; every other code gets the
 * same 401.
 */
export default defineOperation({
  name: 'person.signInLink',
  summary: 'Exchanges a one-time link code of person.requestLink for an event-scope token record (spec §2.1).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event the link is for'),
    code: b(text(200), 'the code of the link (its `code` query parameter)'),
  },
  auth: { kind: 'public' },
  staleTokenIgnored: true,
  extension: true,
  writes: true,
  answer: signInLinkWire,
  async handler(ctx, p) {
    // Codes are 256 bits: guessing is hopeless, but a client that keeps sending wrong ones is slowed.
    const throttleKey = `signinlink:${throttleAddress(ctx.clientIp)}`;
    const tried = await ctx.counter.peek(throttleKey);
    if (tried.count >= ctx.config.MAGIC_LINK_WRONG_PER_CLIENT)
      throw new ApiError(429, 'too many wrong links, try again later', {
        'Retry-After': String(Math.max(1, Math.ceil(tried.resetMs / 1000))),
      });
    const personID = await spendLink(ctx.db, p.code, p.eventID, ctx.now);
    // Spent now, but the person may have left the event since the link was sent.
    const member =
      personID !== undefined &&
      (await eventPersonOf(ctx.db, p.eventID, personID).select('personID').executeTakeFirst());
    if (personID === undefined || !member) {
      await ctx.counter.hit(throttleKey, WRONG_WINDOW_MS);
      throw new ApiError(401, 'link expired or already used');
    }
    const tokenID = await issueToken(ctx, personID, 'event', p.eventID);
    const person = await personByID(ctx.db, personID);
    // An attendee of a private event has what its access code proves: the event's pages are theirs too.
    const event = await eventColumns(ctx.db, p.eventID, ['public', 'accessCode']);
    const grant = event && event.public !== 1 ? await issueGrant(ctx.db, p.eventID, ctx.now, event.accessCode) : '';
    return [{ ...tokenRecord(person, { tokenID, scope: 'event', targetID: p.eventID }, ctx.now), grant }];
  },
});
