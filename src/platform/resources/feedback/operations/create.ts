import { z } from 'zod';
import { b, bOpt, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { bit, id, text } from '../../../schemas.ts';
import { sanitizeOrganizerHtml } from '../../html.ts';
import { apiKey, fieldType, options } from '../../form/fields.ts';
import { checkApiKeyFree, checkOptions, feedbackRows, nextPosition } from '../../form/repository.ts';
import { insertRow } from '../../rows.ts';

export const fieldName = text(200)
  .transform((v) => v.trim())
  .refine((v) => v !== '', 'cannot be blank');
export const fieldDescription = text(5000).transform(sanitizeOrganizerHtml);
export const fieldPosition = z
  .string()
  .regex(/^\d{1,6}$/, 'must be an integer from 0 to 999999')
  .transform(Number);

/** Podium extension: adds a custom field (spec §4.4 feedbackContent) to the event's registration form. */
export default defineOperation({
  name: 'feedback.create',
  summary: 'Adds a custom field to the registration form of an event.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: b(fieldName, 'label shown to the registrant'),
    type: b(fieldType, 'text, textarea, select, multiselect, checkbox, date, number, email, telephone or url'),
    options: bOpt(options, 'choices of select and multiselect: a JSON array of strings, or one per line'),
    required: bOpt(bit, '1: the form cannot be sent without an answer (default 0)'),
    apiKey: bOpt(apiKey, 'API Field key: the name of this field in feedbackContent given as an object'),
    description: bOpt(fieldDescription, 'help text (HTML allowed, sanitized)'),
    position: bOpt(fieldPosition, 'order in the form (default: after the last field)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const list = p.options ?? [];
    checkOptions(p.type, list);
    if (p.apiKey !== undefined) await checkApiKeyFree(ctx.db, p.eventID, p.apiKey);
    const feedbackID = await insertRow(ctx.db, 'feedback', 'feedbackID', {
      eventID: p.eventID,
      name: p.name,
      type: p.type,
      options: JSON.stringify(list),
      apiKey: p.apiKey ?? null,
      required: p.required ?? 0,
      description: p.description ?? '',
      position: p.position ?? (await nextPosition(ctx.db, p.eventID)),
    });
    return feedbackRows(ctx.db, p.eventID, feedbackID);
  },
});
