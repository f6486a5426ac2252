import { defineOperation, pageOf, pageParams, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { paged } from '../../../domain/relation/common.ts';
import { listMembers } from '../../../domain/list/repository.ts';

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
    return paged(
      pageOf(p),
      (limit, offset) =>
        listMembers(ctx.db, p.listID)
          .orderBy('eventPerson.name')
          .orderBy('listPerson.personID')
          .limit(limit)
          .offset(offset)
          .execute(),
      async () =>
        (
          await ctx.db
            .selectFrom('listPerson')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('listID', '=', p.listID)
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
