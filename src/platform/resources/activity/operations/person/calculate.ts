import { defineOperation, q, ANY_LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { countsOf, seatsOf } from '../../../enrollment/seats.ts';

/** The participant numbers of an activity (docs/api/attendance.md); '' stands for "no limit". */
export async function participation(db: Parameters<typeof seatsOf>[0], activityID: number) {
  const seats = (await seatsOf(db, activityID))!;
  const c = await countsOf(db, activityID);
  const attending = c.approved + c.waiting;
  const seatsLeft = seats.capacity > 0 ? Math.max(0, seats.capacity - c.approved) : undefined;
  const openings = seats.oversize > 0 ? Math.max(0, seats.oversize - attending) : undefined;
  // Approved right away: a free seat, and room under oversize.
  const remaining =
    seatsLeft === undefined ? openings : openings === undefined ? seatsLeft : Math.min(seatsLeft, openings);
  const full = openings === 0 ? 1 : 0;
  return {
    activityID,
    capacity: seats.capacity,
    oversize: seats.oversize,
    approved: c.approved,
    waiting: c.waiting,
    attending,
    paid: c.paid,
    present: c.present,
    remaining: remaining ?? '',
    openings: openings ?? '',
    waitingList: remaining === 0 && !full ? 1 : 0,
    full,
  };
}

/** Spec §4.6 "computes number of participants": seats taken, waiting list, what is left. */
export default defineOperation({
  name: 'activity.person.calculate',
  summary: 'Counts the participants of an activity: approved, waiting, attending, seats left, full.',
  methods: ['GET'],
  params: { activityID: q(id, 'the activity') },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    return [await participation(ctx.db, p.activityID)];
  },
});
