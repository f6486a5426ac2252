import type { AnyOperation } from '../kernel/table.ts';
import activityCreate from '../resources/activity/operations/create.ts';
import activityEdit from '../resources/activity/operations/edit.ts';
import activityRemove from '../resources/activity/operations/remove.ts';
import activityGet from '../resources/activity/operations/get.ts';
import activityCopy from '../resources/activity/operations/copy.ts';
import activityDelay from '../resources/activity/operations/delay.ts';
import activityFind from '../resources/activity/operations/find.ts';
import activityChanges from '../resources/program/operations/changes.ts';

/** The activity root operations (spec §4.5, §2.4); docs/api/activities.md. */
export const activitiesOperations: readonly AnyOperation[] = [
  activityCreate,
  activityEdit,
  activityRemove,
  activityGet,
  activityCopy,
  activityDelay,
  activityFind,
  activityChanges,
];
