import { qOpt } from '../../../kernel/table.ts';
import { text } from '../../../schemas.ts';
import { checkSpeakerPerson, SPEAKER } from '../repository.ts';
import { crudOperations } from '../../../kernel/crud.ts';

/**
 * Podium extension (the spec lists the Speaker fields, §2.5, but not its root operations): the
 * speakers of an event, listed by position then name. Public reads like the rest of the site's
 * content; only the event's admins see `email`. `description` is organizer HTML, sanitized;
 * `personID` links the speaker to one attendee of the event (one speaker per attendee).
 */
export const speakerOperations = crudOperations(SPEAKER, {
  module: 'speaker',
  summaries: {
    create: 'Adds a speaker to an event.',
    find: 'Lists the speakers of an event (public for readable events).',
    get: 'Reads one speaker (public for readable events).',
    remove: 'Removes a speaker from its event.',
  },
  edit: { max: 50000, description: 'new value; empty clears (not name)' },
  find: {
    text: ['name', 'headline'],
    equal: { category: qOpt(text(100), 'category equals') },
    cors: true,
  },
  rules: {
    async create(ctx, eventID, values) {
      if (values.personID !== undefined) await checkSpeakerPerson(ctx.db, eventID, values.personID as number);
    },
    async edit(ctx, row, column, value) {
      if (column === 'personID' && value !== null)
        await checkSpeakerPerson(ctx.db, row.eventID as number, value as number, row.speakerID as number);
    },
  },
});
