import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { bit, nonBlank, text } from '../../schemas.ts';
import { feedbackWire } from '../../../shared/wire/feedback.ts';
import { sanitizeOrganizerHtml } from '../html.ts';
import { countOf, defineResource, field } from '../crud/resource.ts';
import { apiKey, fieldType, options, parseStoredOptions } from '../form/fields.ts';
import { checkApiKeyFree, checkOptions, nextPosition } from '../form/repository.ts';

export const fieldName = nonBlank(200);
export const fieldDescription = text(5000).transform(sanitizeOrganizerHtml);
export const fieldPosition = z
  .string()
  .regex(/^\d{1,6}$/, 'must be an integer from 0 to 999999')
  .transform(Number);

/** How many registrations answered each field. */
const answers = countOf('answers', 'feedbackAnswer', 'feedbackID');

/**
 * A custom field of an event's registration form (spec §4.4 feedbackContent), declared once. Options
 * are stored as JSON text and shown as a list of { value }; `answers` counts the registrations that
 * answered it. Listed in form order (position, then feedbackID).
 */
export const FEEDBACK = defineResource({
  table: 'feedback',
  id: 'feedbackID',
  what: 'field',
  wire: feedbackWire,
  fields: {
    name: field(fieldName, 'label shown to the registrant', { required: true }),
    type: field(fieldType, 'text, textarea, select, multiselect, checkbox, date, number, email, telephone or url', {
      required: true,
    }),
    options: field(
      options.transform((list) => JSON.stringify(list)),
      'choices of select and multiselect: a JSON array of strings, or one per line',
      { clear: '[]' },
    ),
    required: field(bit, '1: the form cannot be sent without an answer (default 0)', { default: 0 }),
    apiKey: field(apiKey, 'API Field key: the name of this field in feedbackContent given as an object', {
      clear: null,
    }),
    description: field(fieldDescription, 'help text (HTML allowed, sanitized)', { clear: '' }),
    position: field(fieldPosition, 'order in the form (default: after the last field)', { default: 0 }),
  },
  derived: {
    keys: answers.keys,
    async add(db, rows) {
      await answers.add(db, rows);
      // Shown as the form shows them: options a list of { value }, no API key ''.
      for (const row of rows) {
        row.options = parseStoredOptions(row.options as string).map((value) => ({ value }));
        row.apiKey = row.apiKey ?? '';
      }
    },
  },
  order: ['position', 'feedbackID'],
});

/**
 * The rules of a new field (feedback.create, and the seed's form): a select or multiselect needs
 * options, its API Field key is free in the event, and with no position it goes after the last field.
 */
export async function checkNewField(db: Kysely<DB>, eventID: number, values: Record<string, unknown>) {
  checkOptions(values.type as string, parseStoredOptions((values.options as string | undefined) ?? '[]'));
  if (values.apiKey !== undefined) await checkApiKeyFree(db, eventID, values.apiKey as string);
  values.position ??= await nextPosition(db, eventID);
}
