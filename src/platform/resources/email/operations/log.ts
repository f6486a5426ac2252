import { defineOperation, pageOf, pageParams, q, qOpt, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { emailLogWire } from '../../../../shared/wire/email.ts';
import { logRows } from '../repository.ts';

/** Podium extension: the event's e-mail log (spec §2.6 fields), latest first. */
export default defineOperation({
  name: 'event.email.log',
  summary: 'Lists the e-mail log of an event (every message: status, from, to, subject, opens), latest first.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    eventEmailID: qOpt(id, 'only the messages of this custom e-mail'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: emailLogWire,
  extension: true,
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    return logRows(ctx.db, p.eventID, p.eventEmailID, page.limit, page.offset);
  },
});
