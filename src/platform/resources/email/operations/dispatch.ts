import { defineOperation, b, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { conflict } from '../../../errors.ts';
import { eventEmailWire } from '../../../../shared/wire/email.ts';
import { DISPATCH_JOB } from '../bulk.ts';
import { emailRecords, startDispatch } from '../repository.ts';

/**
 * Spec §4.9: sends a custom e-mail to everyone in the event (or its list), once: the dispatch runs as
 * jobs in batches, throttled, resumable (bulk.ts); a second dispatch of the same e-mail is refused.
 */
export default defineOperation({
  name: 'event.email.dispatch',
  summary: 'Sends a custom e-mail to everyone in the event or its list, in throttled batches (jobs).',
  methods: ['POST'],
  params: { eventEmailID: b(id, 'the custom e-mail') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['eventEmailID'] },
  answer: eventEmailWire,
  writes: true,
  async handler(ctx, p) {
    if (!(await startDispatch(ctx.db, p.eventEmailID))) throw conflict('the e-mail has been dispatched already');
    await ctx.jobs.add(ctx.db, DISPATCH_JOB, { eventEmailID: p.eventEmailID }, { key: `${p.eventEmailID}:0` });
    return emailRecords(ctx.db, { eventEmailID: p.eventEmailID });
  },
});
