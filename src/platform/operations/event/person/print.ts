import { sql } from 'kysely';
import { defineOperation, q, LEVEL } from '../../../table.ts';
import { id } from '../../../schemas.ts';
import { conflict, notFound } from '../../../errors.ts';
import { attendeeRecord } from '../../../domain/attendee/record.ts';
import { recordOptions, viewerOf } from '../../../domain/attendee/profile.ts';

/**
 * Spec §4.4 names it, §8 "label printing"; parameters are Podium's. Counts one more printed label
 * of the attendee (`prints`). When the event's printLimit (event.edit, 0 = none) is reached → 409.
 * One conditional UPDATE, so concurrent prints can never pass the limit.
 */
export default defineOperation({
  name: 'event.person.print',
  summary: "Counts a new label print of an attendee (refused once the event's printLimit is reached).",
  methods: ['GET', 'POST'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the attendee whose label was printed'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN | LEVEL.STAFF },
  writes: true,
  async handler(ctx, p) {
    const limitOf = ctx.db.selectFrom('event').select('event.printLimit').where('event.eventID', '=', p.eventID);
    const result = await ctx.db
      .updateTable('eventPerson')
      .set({ prints: sql`${sql.ref('prints')} + 1`, updatedDate: ctx.now })
      .where('eventID', '=', p.eventID)
      .where('personID', '=', p.personID)
      .where((e) => e.or([e(limitOf, '=', 0), e('prints', '<', limitOf)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const member = await ctx.db
        .selectFrom('eventPerson')
        .select('prints')
        .where('eventID', '=', p.eventID)
        .where('personID', '=', p.personID)
        .executeTakeFirst();
      if (!member) throw notFound('person');
      throw conflict(`the print limit of this event is reached (${member.prints} labels printed)`);
    }
    const record = await attendeeRecord(
      ctx.db,
      p.eventID,
      p.personID,
      viewerOf(ctx),
      await recordOptions(ctx.db, p.eventID),
    );
    return [record!];
  },
});
