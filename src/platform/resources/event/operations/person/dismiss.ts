import { defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { notFound } from '../../../../errors.ts';
import { lockRow } from '../../../rows.ts';
import { attendeeRecord } from '../../../attendee/record.ts';
import { recordOptions } from '../../../attendee/profile.ts';
import { dismissFromEvent } from '../../../enrollment/seats.ts';
import { removeFromEventLists } from '../../../list/repository.ts';
import { removeRegistration } from '../../../attendee/membership.ts';
import { viewerOf } from '../../../../kernel/call.ts';

/**
 * Podium extension (spec §1.3 names `dismiss` for removing a connection; §4.4 lists no way to remove an
 * attendee). Removes a person from the event: their activity seats (each freed seat goes to that
 * activity's waiting list), list memberships, attendee tags, custom-field answers and the event-scope
 * tokens of this event. The person stays (other events, speaker rows). Answers the record as it was.
 */
export default defineOperation({
  name: 'event.person.dismiss',
  summary: 'Removes an attendee from the event, with their seats, lists, tags, answers and event tokens.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: q(id, 'the attendee to remove'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { eventID, personID } = p;
    // Lock order everywhere: the event, then its activities (dismissFromEvent locks those).
    await lockRow(ctx.db, 'event', eventID);
    const record = await attendeeRecord(ctx.db, eventID, personID, viewerOf(ctx), await recordOptions(ctx.db, eventID));
    if (!record) throw notFound('person');
    await dismissFromEvent(ctx.db, eventID, personID);
    await removeFromEventLists(ctx.db, eventID, personID);
    await removeRegistration(ctx.db, eventID, personID);
    return [record];
  },
});
