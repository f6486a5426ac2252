import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { listQuery } from '../repository.ts';

/** Podium extension: one list with its member count (event admins only: lists are a dashboard tool). */
export default defineOperation({
  name: 'list.get',
  summary: 'Reads one list with its member count.',
  methods: ['GET'],
  params: { listID: q(id, 'the list') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  extension: true,
  writes: false,
  async handler(ctx, p) {
    return listQuery(ctx.db).where('list.listID', '=', p.listID).execute();
  },
});
