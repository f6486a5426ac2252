import { defineOperation, editParams, q, qOpt, LEVEL } from '../../../kernel/table.ts';
import { bit, id } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { lockActivities, reseat } from '../../enrollment/seats.ts';
import { enrollAttendeesInGeneral } from '../../enrollment/general.ts';
import { activityRecords } from '../record.ts';
import { EDIT_KEYS } from '../fields.ts';
import { activityRow } from '../repository.ts';
import { updateRow } from '../../rows.ts';

/**
 * Spec §4.5, §2.4: edits one field of an activity and sets its updatedDate. Keys outside the list
 * are refused. `push` (spec §6: notify the event's channel activity/edit): every edit is sent on
 * push.subscribe's activity/edit, so push=1 asks for what happens anyway (docs/push.md). Switching `general` on (0 → 1) enrolls the event's
 * approved attendees at once, under the seat rules (docs/api/attendance.md "General activities").
 */
export default defineOperation({
  name: 'activity.edit',
  summary: `Edits one activity field. Keys: ${keyList(EDIT_KEYS)}.`,
  methods: ['POST'],
  params: {
    activityID: q(id, 'the activity'),
    push: qOpt(bit, '1 sends the activity/edit push notification (push.subscribe; every edit is sent there)'),
    ...editParams(50000),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['activityID'] },
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(EDIT_KEYS, p.key, p.value);
    const current = (await activityRow(ctx.db, p.activityID))!;
    if (column === 'dateBegin' || column === 'dateEnd') {
      const begin = column === 'dateBegin' ? (value as number) : current.dateBegin;
      const end = column === 'dateEnd' ? (value as number) : current.dateEnd;
      if (end < begin) throw badRequest('dateEnd cannot be before dateBegin (edit the other date first)');
    }
    const generalOn = column === 'general' && value === 1 && current.general !== 1;
    // The activity locks (chain mates included, ascending) before this row's update takes its own.
    if (generalOn) await lockActivities(ctx.db, [p.activityID]);
    await updateRow(ctx.db, 'activity', 'activityID', p.activityID, { [column]: value, updatedDate: ctx.now });
    // More seats go to the waiting list at once, first in the queue first.
    if (column === 'capacity' || column === 'oversize') await reseat(ctx.db, p.activityID);
    if (generalOn) await enrollAttendeesInGeneral(ctx.db, p.activityID, ctx.now);
    const row = (await activityRow(ctx.db, p.activityID))!;
    return activityRecords(ctx.db, [row], { personID: ctx.caller!.personID });
  },
});
