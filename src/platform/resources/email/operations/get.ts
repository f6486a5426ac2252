import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { eventEmailWire } from '../../../../shared/wire/email.ts';
import { emailRecords } from '../repository.ts';

/** Spec §4.9: one custom e-mail. */
export default defineOperation({
  name: 'event.email.get',
  summary: 'Reads one custom e-mail with how many were sent.',
  methods: ['GET'],
  params: { eventEmailID: q(id, 'the custom e-mail') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['eventEmailID'] },
  answer: eventEmailWire,
  writes: false,
  async handler(ctx, p) {
    return emailRecords(ctx.db, { eventEmailID: p.eventEmailID });
  },
});
