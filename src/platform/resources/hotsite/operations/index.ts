import { qOpt } from '../../../kernel/table.ts';
import { checkSectionRoom, sectionKind, SECTION } from '../repository.ts';
import { crudOperations } from '../../../kernel/crud.ts';

/**
 * Spec §4.9 (event.hotsite.create, with `section` in the query as the spec's table has it) and Podium
 * extensions (edit, find, remove): the sections of an event's public website. Deviation: the spec's
 * create has no tokenID, but sections are the event's public website, so an event admin's token is
 * required (docs/api/site.md). Public reads like speaker.find; an event has at most 100 sections (one
 * page with limit=100).
 */
export const hotsiteOperations = crudOperations(SECTION, {
  module: 'event.hotsite',
  summaries: {
    create: "Adds a section to the event's public website (event admins).",
    find: "Lists the sections of an event's public website (public for readable events).",
    remove: "Removes a section from the event's public website.",
  },
  spec: ['create'],
  inQuery: ['section'],
  edit: { max: 50000, description: 'new value; empty clears name and text' },
  find: { equal: { section: qOpt(sectionKind, 'only sections of this kind') } },
  rules: {
    async create(ctx, eventID) {
      await checkSectionRoom(ctx.db, eventID);
    },
  },
});
