import { b, defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { relationName } from '../../domain/relation/common.ts';
import { listQuery } from '../../domain/list/repository.ts';

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
    const { listID } = await ctx.db
      .insertInto('list')
      .values({ eventID: p.eventID, name: p.name, dateCreated: ctx.now })
      .returning('listID')
      .executeTakeFirstOrThrow();
    return listQuery(ctx.db).where('list.listID', '=', listID).execute();
  },
});
