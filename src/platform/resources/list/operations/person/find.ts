import { defineOperation, pageOf, pageParams, q, LEVEL } from '../../../../kernel/table.ts';
import { listMembersPage } from '../../../relation/pages.ts';
import { id } from '../../../../schemas.ts';

/** Podium extension: the members of a list (listID, personID, name, email), by name. */
export default defineOperation({
  name: 'list.person.find',
  summary: 'Lists the members of a list.',
  methods: ['GET'],
  params: { listID: q(id, 'the list'), ...pageParams },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['listID'] },
  extension: true,
  writes: false,
  async handler(ctx, p) {
    return listMembersPage(ctx.db, p.listID, pageOf(p));
  },
});
