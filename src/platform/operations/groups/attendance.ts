import type { AnyOperation } from '../../table.ts';
import activityPersonBind from '../activity/person/bind.ts';
import activityPersonOperate from '../activity/person/operate.ts';
import activityPersonDismiss from '../activity/person/dismiss.ts';
import activityPersonFind from '../activity/person/find.ts';
import activityPersonGet from '../activity/person/get.ts';
import activityPersonCalculate from '../activity/person/calculate.ts';

/** Activity attendees (spec §4.6): docs/api/attendance.md. */
export const attendanceOperations: readonly AnyOperation[] = [
  activityPersonBind,
  activityPersonOperate,
  activityPersonDismiss,
  activityPersonFind,
  activityPersonGet,
  activityPersonCalculate,
];
