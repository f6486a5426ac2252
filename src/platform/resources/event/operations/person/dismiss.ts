import { ApiError } from '../../../../errors.ts';
import { defineOperation, q, qOpt, ANY_LEVEL, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { notFound } from '../../../../errors.ts';
import { lockRow } from '../../../rows.ts';
import { attendeeRecord } from '../../../attendee/record.ts';
import { recordOptions } from '../../../attendee/profile.ts';
import { dismissFromEvent } from '../../../enrollment/seats.ts';
import { removeFromEventLists } from '../../../list/repository.ts';
import { removeRegistration } from '../../../attendee/membership.ts';
import { viewerOf } from '../../../../kernel/call.ts';
import { anyoneWaiting, lockForPromotion, movingQueue, promoteWaiting } from '../../../attendee/waiting.ts';
import { queueConfirmation } from '../../../email/confirmation.ts';

/**
 * Podium extension (spec §1.3 names `dismiss` for removing a connection; §4.4 lists no way to remove an
 * attendee). Removes a person from the event: their activity seats (each freed seat goes to that
 * activity's waiting list), list memberships, attendee tags, custom-field answers and the event-scope
 * tokens of this event. The person stays (other events, speaker rows). Answers the record as it was.
 *
 * An approved attendee leaving an event with a capacity and a waiting list frees their place (and their
 * guests'): the event's waiting list moves up, first registered first, while places are free; each person
 * promoted becomes approved as a registration would make them (general activities, the confirmation
 * e-mail). The same rule for an admin's dismiss and the attendee's own cancel (attendee/waiting.ts).
 *
 * Without personID (issue 18), the token's own person cancels their registration: the same removal,
 * except that the token of the call stays (it opens nothing of the event any more), so a second call
 * answers as the first did — `{"count":"0","data":[]}` both times.
 */
export default defineOperation({
  name: 'event.person.dismiss',
  summary:
    "Removes an attendee from the event, with their seats, lists, tags, answers and event tokens; without personID, cancels the token's own registration. A freed place goes to the event's waiting list (first registered first).",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    personID: qOpt(id, "the attendee to remove (event admins); without it, the token's own registration"),
  },
  auth: { kind: 'event', levels: ANY_LEVEL, formerMember: true },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { eventID } = p;
    const caller = ctx.caller!;
    const self = p.personID === undefined;
    const personID = p.personID ?? caller.personID;
    if (!self && ((ctx.access?.level ?? 0) & LEVEL.ADMIN) === 0)
      throw new ApiError(403, caller.scope === 'event' ? 'an event-scope token cannot do this' : 'permission level too low'); // prettier-ignore
    // Lock order everywhere: the event, then its activities (dismissFromEvent locks those).
    await lockRow(ctx.db, 'event', eventID);
    const record = await attendeeRecord(ctx.db, eventID, personID, viewerOf(ctx), await recordOptions(ctx.db, eventID));
    if (!record && !self) throw notFound('person');
    if (record) {
      // The waiting list may move: someone approved leaves an event whose queue moves and has people in it.
      const promote =
        Number(record.approved) === 1 &&
        (await movingQueue(ctx.db, eventID)) !== undefined &&
        (await anyoneWaiting(ctx.db, eventID));
      // Then the general activities (where the promoted are enrolled) are locked now, with the person's
      // own, all ascending: never a lower activity after a higher one (no lock-order cycle on PostgreSQL).
      if (promote) await lockForPromotion(ctx.db, eventID, personID);
      await dismissFromEvent(ctx.db, eventID, personID);
      await removeFromEventLists(ctx.db, eventID, personID);
      await removeRegistration(ctx.db, eventID, personID, ctx.now, self ? caller.tokenHash : '');
      if (promote)
        for (const promoted of await promoteWaiting(ctx.db, eventID, ctx.now)) {
          // The registration's confirmation e-mail, a job in this transaction, as an approval sends it.
          if (!ctx.sandbox) await queueConfirmation(ctx.db, ctx.jobs, eventID, promoted);
          // Their record changed too (approved 1): a change of its own, as an edit of it would record,
          // so webhooks and push channels hear of each promotion, not only of the dismiss.
          ctx.alsoChanged?.('event.person.operate', { eventID, personID: promoted });
        }
    }
    return self ? [] : [record!];
  },
});
