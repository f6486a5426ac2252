import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { conflict, notFound } from '../../../errors.ts';
import { eventEmailWire } from '../../../../shared/wire/email.ts';
import { SEND_MAIL_JOB } from '../bulk.ts';
import { attendeeEmail, emailByID, emailRecords, hadEmail } from '../repository.ts';

/**
 * Podium extension: sends a custom e-mail to one attendee, as event.email.dispatch sends it to each of its
 * recipients (the same job, the same once-per-person key): the single operation of daemon.bulk's
 * `event.email.send` target, which sends an e-mail to a selection (docs/api/daemons.md).
 */
export default defineOperation({
  name: 'event.email.send',
  summary:
    'Sends a custom e-mail to one attendee of its event (a job), once: a person who has had it (by dispatch or an earlier send) is refused with 409.',
  methods: ['GET'],
  params: { eventEmailID: q(id, 'the custom e-mail'), personID: q(id, 'the attendee') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['eventEmailID'] },
  answer: eventEmailWire,
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const e = (await emailByID(ctx.db, p.eventEmailID))!;
    const address = await attendeeEmail(ctx.db, e.eventID, p.personID);
    if (address === undefined) throw notFound('person');
    if (!address.includes('@')) throw conflict('the attendee has no e-mail address');
    if (await hadEmail(ctx.db, p.eventEmailID, p.personID)) throw conflict('the attendee has had this e-mail already');
    const added = await ctx.jobs.add(ctx.db, SEND_MAIL_JOB, { eventEmailID: p.eventEmailID, personID: p.personID }, {
      key: `${p.eventEmailID}:${p.personID}`,
    }); // prettier-ignore
    if (!added) throw conflict('the attendee has had this e-mail already');
    return emailRecords(ctx.db, { eventEmailID: p.eventEmailID });
  },
});
