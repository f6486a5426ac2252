import { defineOperation, editParams, q, LEVEL } from '../../../kernel/table.ts';
import { editKey, parseEdit } from '../../../edit.ts';
import { bit, id } from '../../../schemas.ts';
import { conflict, notFound } from '../../../errors.ts';
import { eventEmailWire } from '../../../../shared/wire/email.ts';
import { sanitizeOrganizerHtml } from '../../html.ts';
import { emailByID, emailRecords, setEmailField } from '../repository.ts';
import { body, subject } from './fields.ts';

/** The keys (spec: text; Podium: subject too). */
const KEYS = { text: editKey(body), subject: editKey(subject), tracking: editKey(bit) };

/** Spec §4.9: edits the text (Podium: or the subject) of a custom e-mail not dispatched yet. */
export default defineOperation({
  name: 'event.email.edit',
  summary:
    'Edits a custom e-mail that has not been dispatched. Keys: text, subject, tracking. tracking 1 counts opens with a pixel (off by default).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    source: q(id, 'the custom e-mail (eventEmailID)'),
    ...editParams(100_000, 'the new value', 'text, or subject or tracking (Podium extensions)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: eventEmailWire,
  writes: true,
  async handler(ctx, p) {
    const edit = parseEdit(KEYS, p.key, p.value);
    const e = await emailByID(ctx.db, p.source);
    if (!e || e.eventID !== p.eventID) throw notFound('eventEmail');
    if (e.state !== '') throw conflict('the e-mail has been dispatched; create another one');
    const value = edit.column === 'text' ? sanitizeOrganizerHtml(edit.value as string) : (edit.value as string | number); // prettier-ignore
    await setEmailField(ctx.db, p.source, edit.column as 'subject' | 'text' | 'tracking', value);
    return emailRecords(ctx.db, { eventEmailID: p.source });
  },
});
