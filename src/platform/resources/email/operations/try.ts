import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { requireCaller } from '../../../auth/access.ts';
import { eventEmailWire } from '../../../../shared/wire/email.ts';
import { SEND_MAIL_JOB } from '../bulk.ts';
import { emailByID, emailRecords } from '../repository.ts';

/** Spec §4.9: sends one test of a custom e-mail to the caller (as a job: the answer does not wait). */
export default defineOperation({
  name: 'event.email.try',
  summary: 'Sends one test of a custom e-mail to the caller, merge fields filled with their own values.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), source: q(id, 'the custom e-mail (eventEmailID)') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: eventEmailWire,
  writes: true,
  async handler(ctx, p) {
    const caller = requireCaller(ctx);
    const e = await emailByID(ctx.db, p.source);
    if (!e || e.eventID !== p.eventID) throw notFound('eventEmail');
    // Each try is a message of its own (its own log row), named by the call's time and a counter.
    const test = `${ctx.now}-${Math.random().toString(36).slice(2, 8)}`;
    await ctx.jobs.add(ctx.db, SEND_MAIL_JOB, { eventEmailID: p.source, personID: caller.personID, test });
    return emailRecords(ctx.db, { eventEmailID: p.source });
  },
});
