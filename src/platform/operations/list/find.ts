import { defineOperation, pageOf, pageParams, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { paged } from '../../domain/relation/common.ts';
import { listQuery } from '../../domain/list/repository.ts';

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
    return paged(
      pageOf(p),
      (limit, offset) =>
        listQuery(ctx.db)
          .where('list.eventID', '=', p.eventID)
          .orderBy('list.name')
          .orderBy('list.listID')
          .limit(limit)
          .offset(offset)
          .execute(),
      async () =>
        (
          await ctx.db
            .selectFrom('list')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('eventID', '=', p.eventID)
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
