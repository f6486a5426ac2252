import { defineOperation, ANY_LEVEL, type Context } from '../../../../kernel/table.ts';
import { dismissSeat, type Seats } from '../../../enrollment/seats.ts';
import { absentRow } from '../../../enrollment/records.ts';
import { contentParam, personFormParams, runPersonForm } from './forms.ts';

/**
 * Spec §4.6, three forms: an admin dismisses a person, or many over the event (B content, all or
 * nothing), or the token's person leaves. A freed seat goes to the first of the waiting list. The answer
 * is each person's record as it now is (approved −1) with `dismissed` 1, or 0 when they were not enrolled.
 */
export default defineOperation({
  name: 'activity.person.dismiss',
  summary: 'Removes people from activities; a freed seat goes to the first of the waiting list.',
  methods: ['GET', 'POST'],
  params: { ...personFormParams('dismiss'), content: contentParam },
  variants: [['activityID', 'personID'], ['eventID', 'content'], ['activityID']],
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID', 'eventID'] },
  writes: true,
  handler: (ctx, p) =>
    runPersonForm(ctx, p, {
      doing: 'dismissing',
      others: 'dismiss other people',
      seat: (seats, personID) => dismiss(ctx.db, seats, personID),
    }),
});

async function dismiss(db: Context['db'], seats: Seats, personID: number) {
  const dismissed = await dismissSeat(db, seats, personID);
  return { ...(await absentRow(db, seats.activityID, seats.eventID, personID)), dismissed: dismissed ? 1 : 0 };
}
