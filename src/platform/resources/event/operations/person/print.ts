import { defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { attendeeRecord } from '../../../attendee/record.ts';
import { recordOptions } from '../../../attendee/profile.ts';
import { countPrint } from '../../../attendee/membership.ts';
import { viewerOf } from '../../../../kernel/call.ts';

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
    await countPrint(ctx.db, p.eventID, p.personID, ctx.now);
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
