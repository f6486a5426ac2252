import type { AnyOperation } from '../../table.ts';
import activityCreate from '../activity/create.ts';
import activityEdit from '../activity/edit.ts';
import activityRemove from '../activity/remove.ts';
import activityGet from '../activity/get.ts';
import activityCopy from '../activity/copy.ts';
import activityDelay from '../activity/delay.ts';
import activityFind from '../activity/find.ts';

/** The activity root operations (spec §4.5, §2.4); docs/api/activities.md. */
export const activitiesOperations: readonly AnyOperation[] = [
  activityCreate,
  activityEdit,
  activityRemove,
  activityGet,
  activityCopy,
  activityDelay,
  activityFind,
];
