import { z } from 'zod';
import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { bit, id } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { lockRow } from '../../rows.ts';
import { activityRecords } from '../record.ts';
import { activityRow, delayActivities } from '../repository.ts';
import { eventColumns } from '../../event/repository.ts';

export const MAX_DELAY_MINUTES = 1440;

/**
 * Spec §4.5: moves an activity by `minutes` (negative moves it earlier), dateBegin and dateEnd
 * alike. With subsequent=1 the other activities of the event that begin at or after its original
 * dateBegin on the same calendar day (in the event's time zone) move too. Answers the moved
 * records by dateBegin.
 */
export default defineOperation({
  name: 'activity.delay',
  summary: 'Delays an activity (and with subsequent=1 the later ones of its day) by some minutes.',
  methods: ['GET'],
  params: {
    activityID: q(id, 'the activity'),
    minutes: q(
      z
        .string()
        .regex(/^-?\d{1,4}$/, `must be an integer from -${MAX_DELAY_MINUTES} to ${MAX_DELAY_MINUTES}`)
        .transform(Number)
        .refine(
          (n) => Math.abs(n) <= MAX_DELAY_MINUTES,
          `must be an integer from -${MAX_DELAY_MINUTES} to ${MAX_DELAY_MINUTES}`,
        ),
      `minutes to add, -${MAX_DELAY_MINUTES} to ${MAX_DELAY_MINUTES}`,
    ),
    subsequent: q(bit, '1 also delays the later activities of the same day'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    await lockRow(ctx.db, 'activity', p.activityID);
    const activity = (await activityRow(ctx.db, p.activityID))!;
    if (activity.dateBegin === 0) throw badRequest('activityID has no dateBegin to delay (set it with activity.edit)');
    const seconds = p.minutes * 60;
    if (activity.dateBegin + seconds < 0) throw badRequest('minutes would move dateBegin before 1970');
    const { timezone } = (await eventColumns(ctx.db, activity.eventID, ['timezone']))!;
    const rows = await delayActivities(ctx.db, activity, seconds, p.subsequent === 1, timezone || 'UTC', ctx.now);
    return activityRecords(ctx.db, rows, { personID: ctx.caller!.personID });
  },
});
