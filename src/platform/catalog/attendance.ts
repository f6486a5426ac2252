import type { AnyOperation } from '../kernel/table.ts';
import activityPersonBind from '../resources/activity/operations/person/bind.ts';
import activityPersonOperate from '../resources/activity/operations/person/operate.ts';
import activityPersonDismiss from '../resources/activity/operations/person/dismiss.ts';
import activityPersonFind from '../resources/activity/operations/person/find.ts';
import activityPersonGet from '../resources/activity/operations/person/get.ts';
import activityPersonCalculate from '../resources/activity/operations/person/calculate.ts';

/** Activity attendees (spec §4.6): docs/api/attendance.md. */
export const attendanceOperations: readonly AnyOperation[] = [
  activityPersonBind,
  activityPersonOperate,
  activityPersonDismiss,
  activityPersonFind,
  activityPersonGet,
  activityPersonCalculate,
];
