import type { AnyOperation } from '../kernel/table.ts';
import { activityPairOperations } from '../resources/activity/operations/pairs.ts';
import { chainOperations } from '../resources/chain/operations/index.ts';
import {
  activityChainFind,
  activityChainFindChainedActivities,
  activityListFind,
} from '../resources/activity/operations/links.ts';
import { listOperations } from '../resources/list/operations/index.ts';
import listPersonBind from '../resources/list/operations/person/bind.ts';
import listPersonDismiss from '../resources/list/operations/person/dismiss.ts';
import listPersonFind from '../resources/list/operations/person/find.ts';
import activitySpeakerFind from '../resources/activity/operations/speaker/find.ts';
import activitySponsorFind from '../resources/activity/operations/sponsor/find.ts';
import activityTagFind from '../resources/activity/operations/tag/find.ts';

/** Activity relations (spec §4.5 bottom half, §2.5), chains (§4.7) and lists (Podium extension). */
export const relationsOperations: readonly AnyOperation[] = [
  ...chainOperations,
  activityChainFind,
  activityChainFindChainedActivities,
  ...listOperations,
  listPersonBind,
  listPersonDismiss,
  listPersonFind,
  activityListFind,
  activitySpeakerFind,
  activitySponsorFind,
  activityTagFind,
  ...activityPairOperations,
];
