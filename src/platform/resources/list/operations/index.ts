import { LEVEL } from '../../../kernel/table.ts';
import { LIST } from '../repository.ts';
import { crudOperations } from '../../../kernel/crud.ts';

/**
 * Podium extension (the spec names lists only through activity.list and activity.find by listID):
 * lists of attendees of an event, to limit activities to their members. An organizer's tool, so only
 * the event's admins read them. Removing a list takes its members out and unlinks its activities (an
 * activity that was limited only to this list becomes open to everyone).
 */
export const listOperations = crudOperations(LIST, {
  module: 'list',
  summaries: {
    create: 'Creates a list of attendees in an event.',
    find: 'Lists the lists of an event with their member counts.',
    get: 'Reads one list with its member count.',
    remove: 'Removes a list, its members and its activity links.',
  },
  edit: { max: 1000, description: 'new value' },
  readLevels: LEVEL.ADMIN,
  rules: {
    create: async (ctx) => ({ dateCreated: ctx.now }),
  },
});
