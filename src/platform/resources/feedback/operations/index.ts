import { LEVEL } from '../../../kernel/table.ts';
import { parseStoredOptions } from '../../form/fields.ts';
import { checkApiKeyFree, checkOptions } from '../../form/repository.ts';
import { checkNewField, FEEDBACK } from '../repository.ts';
import { crudOperations } from '../../../kernel/crud.ts';

/**
 * Podium extension: the custom fields of an event's registration form (spec §4.4 feedbackContent),
 * for its admins. A select or multiselect needs options; an API Field key is unique in the event; a
 * new field goes after the last one unless given a position. Removing a field removes every answer
 * to it.
 */
export const feedbackOperations = crudOperations(FEEDBACK, {
  module: 'feedback',
  summaries: {
    create: 'Adds a custom field to the registration form of an event.',
    edit: 'Edits one property of a custom field of the registration form.',
    find: 'Lists the custom fields of the registration form of an event, in form order.',
    remove: 'Removes a custom field of the registration form and its answers.',
  },
  edit: { max: 50000, description: 'new value; empty clears description, options and apiKey' },
  readLevels: LEVEL.ADMIN,
  rules: {
    create: (ctx, eventID, values) => checkNewField(ctx.db, eventID, values),
    async edit(ctx, field, column, value) {
      if (column === 'type' || column === 'options') {
        const stored = (field.options as { value: string }[]).map((o) => o.value);
        checkOptions(
          column === 'type' ? (value as string) : (field.type as string),
          column === 'options' ? parseStoredOptions(value as string) : stored,
        );
      }
      if (column === 'apiKey' && value !== null)
        await checkApiKeyFree(ctx.db, field.eventID as number, value as string, field.feedbackID as number);
    },
  },
});
