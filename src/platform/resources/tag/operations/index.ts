import { qOpt } from '../../../kernel/table.ts';
import { conflict } from '../../../errors.ts';
import { checkTagName, tagInUse, tagKind, TAG, TAG_KIND_DEFAULT, TAG_KINDS } from '../repository.ts';
import { crudOperations } from '../../../kernel/crud.ts';

/**
 * Podium extension (spec §2.5 Activity tag names tags, their root operations are not shown): the tags
 * of an event, stored with the event's company. `kind` activity (tracks and topics of activities) or
 * attendee (attendee types registration may offer through tagIDs). Names are unique within an event
 * and kind, whatever the case; `kind` may change only while no activity or attendee carries the tag
 * (an attendee type must not turn into a track under its holders). Public reads, so the site builds
 * its filters and the registration form its attendee types. Removing a tag takes it off the
 * activities and attendees that carried it.
 */
export const tagOperations = crudOperations(TAG, {
  module: 'tag',
  summaries: {
    create: 'Adds a tag (activity track or attendee type) to an event.',
    find: 'Lists the tags of an event (public for readable events).',
    get: 'Reads one tag (public for readable events).',
    remove: 'Removes a tag from its event.',
  },
  edit: { max: 1000, description: 'new value; empty clears color' },
  find: {
    equal: { kind: qOpt(tagKind, `only tags of this kind: ${TAG_KINDS.join(' or ')}`) },
    cors: true,
  },
  rules: {
    async create(ctx, eventID, values) {
      await checkTagName(
        ctx.db,
        eventID,
        (values.kind as string | undefined) ?? TAG_KIND_DEFAULT,
        values.name as string,
      );
      return { companyID: ctx.access!.companyID };
    },
    async edit(ctx, tag, column, value) {
      if (column === 'kind' && value !== tag.kind && (await tagInUse(ctx.db, tag.tagID as number)))
        throw conflict('kind cannot change while activities or attendees carry the tag');
      if (column === 'name' || column === 'kind') {
        const next = { name: tag.name as string, kind: tag.kind as string, [column]: value as string };
        await checkTagName(ctx.db, tag.eventID as number, next.kind, next.name, tag.tagID as number);
      }
    },
  },
});
