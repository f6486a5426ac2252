import { defineOperation, q, qOpt, ANY_LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { ApiError, notFound } from '../../../../errors.ts';
import { attendeeRecord } from '../../../attendee/record.ts';
import { READERS, recordOptions } from '../../../attendee/profile.ts';
import { viewerOf } from '../../../../kernel/call.ts';

/**
 * Spec §4.4 names it; parameters are Podium's. One attendee's full record (with the custom-field
 * answers, as fullProfile=1 of event.person.find): without personID the caller's own, which any
 * attendee may read; another attendee needs an event admin, staff or Data Collector.
 */
export default defineOperation({
  name: 'event.person.get',
  summary: "Reads one attendee's record (the caller's own without personID).",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: qOpt(id, 'the attendee (event admins, staff, Data Collectors); without it the caller'),
  },
  auth: { kind: 'event', levels: ANY_LEVEL },
  writes: false,
  async handler(ctx, p) {
    const me = ctx.caller!.personID;
    const personID = p.personID ?? me;
    if (personID !== me && (ctx.access!.level & READERS) === 0)
      throw new ApiError(403, 'only event admins, staff and Data Collectors may read another attendee');
    const record = await attendeeRecord(
      ctx.db,
      p.eventID,
      personID,
      viewerOf(ctx),
      await recordOptions(ctx.db, p.eventID, true),
    );
    if (!record) throw notFound('person');
    return [record];
  },
});
