import { defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { listQuery } from '../../domain/list/repository.ts';

/**
 * Podium extension: removes a list with its members and its links to activities (an activity that
 * was limited only to this list becomes open to everyone); answers the list as it was.
 */
export default defineOperation({
  name: 'list.remove',
  summary: 'Removes a list, its members and its activity links.',
  methods: ['GET'],
  params: { listID: q(id, 'the list') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const record = await listQuery(ctx.db).where('list.listID', '=', p.listID).execute();
    await ctx.db.deleteFrom('listPerson').where('listID', '=', p.listID).execute();
    await ctx.db.deleteFrom('activityList').where('listID', '=', p.listID).execute();
    await ctx.db.deleteFrom('list').where('listID', '=', p.listID).execute();
    return record;
  },
});
