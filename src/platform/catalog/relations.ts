import type { AnyOperation } from '../kernel/table.ts';
import { activityPairOperations } from '../resources/activity/operations/pairs.ts';
import chainCreate from '../resources/chain/operations/create.ts';
import chainRemove from '../resources/chain/operations/remove.ts';
import chainFind from '../resources/chain/operations/find.ts';
import activityChainFind from '../resources/activity/operations/chain/find.ts';
import activityChainFindChainedActivities from '../resources/activity/operations/chain/findChainedActivities.ts';
import listCreate from '../resources/list/operations/create.ts';
import listEdit from '../resources/list/operations/edit.ts';
import listRemove from '../resources/list/operations/remove.ts';
import listGet from '../resources/list/operations/get.ts';
import listFind from '../resources/list/operations/find.ts';
import listPersonBind from '../resources/list/operations/person/bind.ts';
import listPersonDismiss from '../resources/list/operations/person/dismiss.ts';
import listPersonFind from '../resources/list/operations/person/find.ts';
import activityListFind from '../resources/activity/operations/list/find.ts';
import activitySpeakerFind from '../resources/activity/operations/speaker/find.ts';
import activitySponsorFind from '../resources/activity/operations/sponsor/find.ts';
import activityTagFind from '../resources/activity/operations/tag/find.ts';

/** Activity relations (spec §4.5 bottom half, §2.5), chains (§4.7) and lists (Podium extension). */
export const relationsOperations: readonly AnyOperation[] = [
  chainCreate,
  chainRemove,
  chainFind,
  activityChainFind,
  activityChainFindChainedActivities,
  listCreate,
  listEdit,
  listRemove,
  listGet,
  listFind,
  listPersonBind,
  listPersonDismiss,
  listPersonFind,
  activityListFind,
  activitySpeakerFind,
  activitySponsorFind,
  activityTagFind,
  ...activityPairOperations,
];
