import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { bOpt, defineOperation, q } from '../../../kernel/table.ts';
import { email, text } from '../../../schemas.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { logRowByMessageID, markBounced, suppress } from '../repository.ts';

const digest = (v: string) => createHash('sha256').update(v).digest();

/**
 * The JSON shape the endpoint also takes (docs/messaging.md "Bounces reported later"): the form's four
 * fields as one object, other keys ignored (a provider's payload may carry more), at most 16 KB. The
 * reason is cut to the 500 characters kept; everything else is then checked as a form's would be.
 */
const bounceJson = z
  .object(
    {
      messageID: z.string('must be a string').max(300, 'must be at most 300 characters').optional(),
      type: z.enum(['hard', 'soft', 'complaint'], 'must be hard, soft or complaint').optional(),
      email: z.string('must be a string').max(254, 'must be at most 254 characters').optional(),
      reason: z
        .string('must be a string')
        .transform((v) => v.slice(0, 500))
        .optional(),
    },
    'must be a JSON object',
  ) // prettier-ignore
  .transform((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>);

/**
 * Podium extension: where an MTA or mail provider reports a bounce that came after the message left
 * (docs/messaging.md "Bounces reported later"). Authenticated by BOUNCE_SECRET in Q secret; without
 * it set, or with another, the endpoint is 404 as if it did not exist. The message is named by the
 * Message-ID the platform gave it (<log-…@…>, what every DSN quotes); a hard bounce or a complaint puts
 * its recipient on the event's suppression list and marks the log row failed, a soft one only notes why.
 */
export default defineOperation({
  name: 'event.email.bounce',
  summary:
    'Reports a bounce of a message the platform sent (MTA / provider webhook, Q secret = BOUNCE_SECRET): hard and complaint suppress the recipient.',
  methods: ['POST'],
  params: {
    secret: q(text(200), 'BOUNCE_SECRET'),
    messageID: bOpt(text(300), 'the Message-ID of the bounced message, <log-…@…>'),
    type: bOpt(z.enum(['hard', 'soft', 'complaint'], 'must be hard, soft or complaint'), 'hard (default), soft or complaint'), // prettier-ignore
    email: bOpt(email.transform((v) => v.toLowerCase()), 'the recipient, when the report names it (must be the message’s)'), // prettier-ignore
    reason: bOpt(text(500), "the server's line (one line is kept)"),
  },
  auth: { kind: 'public' },
  json: { maxBytes: 16 * 1024, schema: bounceJson },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const secret = ctx.config.BOUNCE_SECRET;
    // Compared as digests: same length whatever was sent, in constant time.
    if (!secret || !timingSafeEqual(digest(p.secret), digest(secret))) throw notFound('bounce endpoint');
    if (p.messageID === undefined) throw badRequest('messageID cannot be empty');
    const row = await logRowByMessageID(ctx.db, p.messageID);
    if (!row || row.to === '') throw notFound('message');
    if (p.email !== undefined && p.email !== row.to.toLowerCase()) throw badRequest('email is not the recipient of that message'); // prettier-ignore
    const type = p.type ?? 'hard';
    const line = (p.reason ?? '').replace(/[\r\n]+/g, ' ').trim();
    const reason = `${type === 'complaint' ? 'complaint' : `${type} bounce`} reported${line ? `: ${line}` : ''}`;
    const suppressing = type !== 'soft';
    await markBounced(ctx.db, row.emailLogID, suppressing, reason, ctx.now);
    if (suppressing) await suppress(ctx.db, row.eventID, row.to, `webhook: ${reason}`, ctx.now);
    return [{ eventID: row.eventID, emailLogID: row.emailLogID, email: row.to.toLowerCase(), type, suppressed: suppressing ? 1 : 0 }]; // prettier-ignore
  },
});
