import { defineOperation, b, bOpt, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { eventEmailWire } from '../../../../shared/wire/email.ts';
import { sanitizeOrganizerHtml } from '../../html.ts';
import { createEmail, emailRecords, isEventList } from '../repository.ts';
import { body, subject } from './fields.ts';

/** Spec §4.9: a custom e-mail of the event, a draft until event.email.dispatch (docs/messaging.md). */
export default defineOperation({
  name: 'event.email.create',
  summary: 'Creates a custom e-mail of an event (subject, HTML text with merge fields, optional list).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    subject: b(subject, 'subject, one line; merge fields allowed'),
    text: b(body, 'HTML (sanitized) with merge fields such as {{firstName}}'),
    listID: bOpt(id, 'a list of the event: only its members get it (default: everyone in the event)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: eventEmailWire,
  writes: true,
  async handler(ctx, p) {
    if (p.listID !== undefined && !(await isEventList(ctx.db, p.eventID, p.listID)))
      throw badRequest('listID is not a list of this event');
    const eventEmailID = await createEmail(ctx.db, {
      eventID: p.eventID,
      subject: p.subject,
      text: sanitizeOrganizerHtml(p.text),
      listID: p.listID ?? 0,
      date: ctx.now,
    });
    return emailRecords(ctx.db, { eventEmailID });
  },
});
