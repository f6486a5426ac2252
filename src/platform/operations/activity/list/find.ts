import { defineOperation, pageOf, pageParams, q, ANY_LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { paged } from '../../../domain/relation/common.ts';

/**
 * Spec §4.5. The lists an activity is limited to (activityID, listID, eventID, name), by name; no
 * members or counts, which only admins read (list.get). Empty: the activity is open to everyone.
 */
export default defineOperation({
  name: 'activity.list.find',
  summary: 'Lists the lists an activity is limited to.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    const base = () =>
      ctx.db
        .selectFrom('activityList')
        .innerJoin('list', 'list.listID', 'activityList.listID')
        .where('activityList.activityID', '=', p.activityID);
    return paged(
      pageOf(p),
      (limit, offset) =>
        base()
          .select(['activityList.activityID', 'list.listID', 'list.eventID', 'list.name'])
          .orderBy('list.name')
          .orderBy('list.listID')
          .limit(limit)
          .offset(offset)
          .execute(),
      async () =>
        (
          await base()
            .select((e) => e.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
    );
  },
});
