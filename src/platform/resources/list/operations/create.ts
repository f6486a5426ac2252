import { b, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { relationName } from '../../relation/common.ts';
import { createList, listByID } from '../repository.ts';

/**
 * Podium extension (the spec names lists only through activity.list and activity.find by listID):
 * creates a list of attendees of an event, to limit activities to its members.
 */
export default defineOperation({
  name: 'list.create',
  summary: 'Creates a list of attendees in an event.',
  methods: ['POST'],
  params: { eventID: q(id, 'the event'), name: b(relationName, 'list name') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    return listByID(ctx.db, await createList(ctx.db, p.eventID, p.name, ctx.now));
  },
});
