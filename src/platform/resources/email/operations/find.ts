import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { eventEmailWire } from '../../../../shared/wire/email.ts';
import { emailRecords } from '../repository.ts';

/** Spec §4.9: the custom e-mails of an event, latest first. */
export default defineOperation({
  name: 'event.email.find',
  summary: 'Lists the custom e-mails of an event, latest first, with how many were sent.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: eventEmailWire,
  writes: false,
  async handler(ctx, p) {
    return emailRecords(ctx.db, { eventID: p.eventID });
  },
});
