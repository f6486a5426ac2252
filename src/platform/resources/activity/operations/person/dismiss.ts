import { z } from 'zod';
import { bOpt, defineOperation, qOpt, ANY_LEVEL, type Context } from '../../../../kernel/table.ts';
import { bit, id } from '../../../../schemas.ts';
import { badRequest } from '../../../../errors.ts';
import { dismissSeat, lockActivities, type Seats } from '../../../enrollment/seats.ts';
import { absentRow } from '../../../enrollment/records.ts';
import { formOf } from '../../../enrollment/forms.ts';
import { requireAttendee, requireUnlocked } from '../../../enrollment/rules.ts';
import { MAX_BULK, MAX_CONTENT, contentOfEvent, inRow } from '../../../enrollment/bulk.ts';
import { eventOfCall, isEventAdmin, requireAdmin, selfAttendee } from '../../../../kernel/call.ts';

/**
 * Spec §4.6, three forms: an admin dismisses a person, or many over the event (B content, all or
 * nothing), or the token's person leaves. A freed seat goes to the first of the waiting list. The answer
 * is each person's record as it now is (approved −1) with `dismissed` 1, or 0 when they were not enrolled.
 */
export default defineOperation({
  name: 'activity.person.dismiss',
  summary: 'Removes people from activities; a freed seat goes to the first of the waiting list.',
  methods: ['GET', 'POST'],
  params: {
    activityID: qOpt(id, 'the activity (every form but content)'),
    eventID: qOpt(id, 'the event (content form only)'),
    personID: qOpt(id, 'admin: the attendee to dismiss'),
    bypassWebhook: qOpt(
      bit,
      '1 skips webhooks (none can be registered yet: accepted, no effect; not for the own form)',
    ),
    content: bOpt(
      z.string().max(MAX_CONTENT, `must be at most ${MAX_CONTENT} characters`),
      `admin: JSON list of {activityID, personID} of the event (at most ${MAX_BULK}; all or nothing)`,
    ),
  },
  variants: [['activityID', 'personID'], ['eventID', 'content'], ['activityID']],
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID', 'eventID'] },
  writes: true,
  async handler(ctx, p) {
    const form = formOf(p);
    const eventID = eventOfCall(ctx);
    if (form === 'self') {
      if (p.bypassWebhook === 1) throw badRequest('bypassWebhook cannot be used when dismissing yourself');
      const personID = await selfAttendee(ctx);
      const seats = (await lockActivities(ctx.db, [p.activityID!])).get(p.activityID!)!;
      if (!isEventAdmin(ctx)) requireUnlocked(seats);
      return [await dismiss(ctx.db, seats, personID)];
    }
    requireAdmin(ctx, 'dismiss other people');
    if (form === 'personID') {
      await requireAttendee(ctx.db, eventID, p.personID!);
      const seats = (await lockActivities(ctx.db, [p.activityID!])).get(p.activityID!)!;
      return [await dismiss(ctx.db, seats, p.personID!)];
    }
    const pairs = await contentOfEvent(ctx.db, eventID, p.content!);
    const seats = await lockActivities(ctx.db, [...new Set(pairs.map((x) => x.activityID))]);
    const out = [];
    for (const [i, pair] of pairs.entries()) {
      out.push(
        await inRow('content item', i, async () => {
          await requireAttendee(ctx.db, eventID, pair.personID);
          return dismiss(ctx.db, seats.get(pair.activityID)!, pair.personID);
        }),
      );
    }
    return out;
  },
});

async function dismiss(db: Context['db'], seats: Seats, personID: number) {
  const dismissed = await dismissSeat(db, seats, personID);
  return { ...(await absentRow(db, seats.activityID, seats.eventID, personID)), dismissed: dismissed ? 1 : 0 };
}
