import { defineOperation, q } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { countOpen } from '../repository.ts';
import { validOpenSignature } from '../unsubscribe.ts';

/**
 * Podium extension: the open-tracking pixel of a custom e-mail whose `tracking` is on (event.email.edit
 * key=tracking; off by default). The mail client fetches it when the message is shown; each fetch
 * counts one open on the message's log row (`opens`). The link is signed per message; a wrong
 * signature, or a message whose e-mail does not track, is 404 as an unknown link. The answer is the
 * usual envelope: the <img> is 1×1 and has no alt text, so nothing shows.
 */
export default defineOperation({
  name: 'event.email.open',
  summary: 'The open-tracking pixel of a custom e-mail with tracking on: counts one open of the message (signed link).',
  methods: ['GET'],
  params: { emailLogID: q(id, 'the message (its e-mail log row)'), sig: q(text(100), "the link's signature") },
  auth: { kind: 'public' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    if (!(await validOpenSignature(ctx.db, p.emailLogID, p.sig))) throw notFound('link');
    if (!(await countOpen(ctx.db, p.emailLogID))) throw notFound('link');
    return [{ emailLogID: p.emailLogID, opened: 1 }];
  },
});
