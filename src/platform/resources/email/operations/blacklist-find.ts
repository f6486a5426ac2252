import { defineOperation, pageOf, pageParams, q, qOpt, LEVEL } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { blacklistWire } from '../../../../shared/wire/email.ts';
import { blacklistOf } from '../repository.ts';

/** Spec §4.9: the event's suppression list (hard bounces, unsubscribes, reported bounces), by address. */
export default defineOperation({
  name: 'event.blacklist.find',
  summary: 'Lists the addresses no e-mail of the event goes to (hard bounces, unsubscribes), by address.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), query: qOpt(text(320), 'addresses containing this'), ...pageParams },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: blacklistWire,
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    return blacklistOf(ctx.db, p.eventID, p.query, page.limit, page.offset);
  },
});
