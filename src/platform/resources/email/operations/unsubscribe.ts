import { z } from 'zod';
import { defineOperation, bOpt, q } from '../../../kernel/table.ts';
import { email, id, text } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { suppress } from '../repository.ts';
import { validSignature } from '../unsubscribe.ts';

/**
 * Podium extension: the one-click unsubscribe of RFC 8058, the List-Unsubscribe link of every bulk
 * message. POST (a mail client, body List-Unsubscribe=One-Click) or GET (a person following the link)
 * puts the address on the event's suppression list. A wrong signature is 404, as an unknown link.
 */
export default defineOperation({
  name: 'event.email.unsubscribe',
  summary: 'One-click unsubscribe (RFC 8058) of a signed link from a bulk e-mail: suppresses the address.',
  methods: ['GET', 'POST'],
  params: {
    eventID: q(id, 'the event'),
    email: q(
      email.transform((v) => v.toLowerCase()),
      'the address',
    ),
    sig: q(text(100), "the link's signature"),
    'List-Unsubscribe': bOpt(z.literal('One-Click', 'must be One-Click'), 'RFC 8058: One-Click'),
  },
  auth: { kind: 'public' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    if (!(await validSignature(ctx.db, p.eventID, p.email, p.sig))) throw notFound('link');
    await suppress(ctx.db, p.eventID, p.email, 'unsubscribe', ctx.now);
    return [{ eventID: p.eventID, email: p.email, unsubscribed: 1 }];
  },
});
