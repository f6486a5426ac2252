import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { listByID, removeList } from '../repository.ts';

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
    const record = await listByID(ctx.db, p.listID);
    await removeList(ctx.db, p.listID);
    return record;
  },
});
