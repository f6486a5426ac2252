import { defineOperation, pageOf, pageParams, q, LEVEL } from '../../../kernel/table.ts';
import { listsPage } from '../../relation/pages.ts';
import { id } from '../../../schemas.ts';

/** Podium extension: the lists of an event, by name, with their member counts (event admins only). */
export default defineOperation({
  name: 'list.find',
  summary: 'Lists the lists of an event with their member counts.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), ...pageParams },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: false,
  async handler(ctx, p) {
    return listsPage(ctx.db, p.eventID, pageOf(p));
  },
});
