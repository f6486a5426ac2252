import { ApiError } from '../../../../errors.ts';
import { defineOperation, q, qOpt, ANY_LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { absentRow, attendeeRow } from '../../../enrollment/records.ts';
import { requireAttendee } from '../../../enrollment/rules.ts';
import { eventOfCall, isAdminOrStaff } from '../../../../kernel/call.ts';

/**
 * Spec §4.6. One enrollment: the token's own without personID (any member), another person's for the
 * event's admins and staff. A person who is not enrolled is answered with approved −1 (spec §3).
 */
export default defineOperation({
  name: 'activity.person.get',
  summary: 'Reads one activity attendee (without personID: the token’s own enrollment).',
  methods: ['GET'],
  params: {
    activityID: q(id, 'the activity'),
    personID: qOpt(id, 'the attendee (event admins and staff; default: the token’s person)'),
  },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    const eventID = eventOfCall(ctx);
    const own = ctx.caller!.personID;
    const personID = p.personID ?? own;
    if (personID !== own) {
      if (!isAdminOrStaff(ctx))
        throw new ApiError(403, 'only event admins and staff may see another person’s enrollment');
      await requireAttendee(ctx.db, eventID, personID);
    }
    const row = await attendeeRow(ctx.db, p.activityID, personID);
    return [row ?? (await absentRow(ctx.db, p.activityID, eventID, personID))];
  },
});
