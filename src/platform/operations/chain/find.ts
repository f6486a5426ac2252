import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { paged } from '../../domain/relation/common.ts';
import { chainQuery, chainRecords } from '../../domain/chain/repository.ts';

/** Spec §4.7. The chains of an event, by name, each with its activities (ids, names) and their count. */
export default defineOperation({
  name: 'chain.find',
  summary: 'Lists the chains of an event with their activities.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  async handler(ctx, p) {
    return paged(
      pageOf(p),
      async (limit, offset) =>
        chainRecords(
          ctx.db,
          await chainQuery(ctx.db)
            .where('chain.eventID', '=', p.eventID)
            .orderBy('chain.name')
            .orderBy('chain.chainID')
            .limit(limit)
            .offset(offset)
            .execute(),
        ),
      async () =>
        (
          await ctx.db
            .selectFrom('chain')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('eventID', '=', p.eventID)
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
