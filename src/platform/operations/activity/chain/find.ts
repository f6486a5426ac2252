import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { paged } from '../../../domain/relation/common.ts';
import { chainQuery, chainRecords } from '../../../domain/chain/repository.ts';

/** Spec §4.5. The chains an activity belongs to, as chain.find shows them. */
export default defineOperation({
  name: 'activity.chain.find',
  summary: 'Lists the chains of an activity.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    const mine = (db: typeof ctx.db) =>
      db
        .selectFrom('activityChain')
        .select('activityChain.chainID')
        .where('activityChain.activityID', '=', p.activityID);
    return paged(
      pageOf(p),
      async (limit, offset) =>
        chainRecords(
          ctx.db,
          await chainQuery(ctx.db)
            .where('chain.chainID', 'in', mine(ctx.db))
            .orderBy('chain.name')
            .orderBy('chain.chainID')
            .limit(limit)
            .offset(offset)
            .execute(),
        ),
      async () =>
        (
          await mine(ctx.db)
            .clearSelect()
            .select((e) => e.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
