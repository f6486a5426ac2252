import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { paged, viewerOf } from '../../../domain/relation/common.ts';
import { activityQuery, activityRecords } from '../../../domain/activity/record.ts';

/**
 * Spec §4.5. The other activities that share a chain with this one (each once, by dateBegin), as
 * activity records with the caller's own enrollment state: what enrolling here would conflict with.
 */
export default defineOperation({
  name: 'activity.chain.findChainedActivities',
  summary: 'Lists the other activities sharing a chain with an activity.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    const chained = (db: typeof ctx.db) =>
      db
        .selectFrom('activity')
        .where('activity.activityID', '!=', p.activityID)
        .where('activity.activityID', 'in', (s) =>
          s
            .selectFrom('activityChain as other')
            .innerJoin('activityChain as mine', 'mine.chainID', 'other.chainID')
            .select('other.activityID')
            .where('mine.activityID', '=', p.activityID),
        );
    return paged(
      pageOf(p),
      async (limit, offset) => {
        const rows = await activityQuery(ctx.db)
          .where('activity.activityID', 'in', chained(ctx.db).select('activity.activityID'))
          .orderBy('activity.dateBegin')
          .orderBy('activity.activityID')
          .limit(limit)
          .offset(offset)
          .execute();
        return activityRecords(ctx.db, rows, viewerOf(ctx));
      },
      async () =>
        (
          await chained(ctx.db)
            .select((e) => e.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
