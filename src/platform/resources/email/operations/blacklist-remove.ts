import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { blacklistWire } from '../../../../shared/wire/email.ts';
import { unsuppress } from '../repository.ts';

/** Spec §4.9: takes an address off the event's suppression list (its e-mails reach it again). */
export default defineOperation({
  name: 'event.blacklist.remove',
  summary: 'Takes an address off the suppression list of its event; answers the entry removed.',
  methods: ['GET'],
  params: { eventBlacklistID: q(id, 'the entry') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['eventBlacklistID'] },
  answer: blacklistWire,
  writes: true,
  async handler(ctx, p) {
    const row = await unsuppress(ctx.db, p.eventBlacklistID);
    if (!row) throw notFound('eventBlacklist');
    return [row];
  },
});
