import type { AnyOperation } from '../../table.ts';
import { activityPairOperations } from '../activity/pairs.ts';
import chainCreate from '../chain/create.ts';
import chainRemove from '../chain/remove.ts';
import chainFind from '../chain/find.ts';
import activityChainFind from '../activity/chain/find.ts';
import activityChainFindChainedActivities from '../activity/chain/findChainedActivities.ts';
import listCreate from '../list/create.ts';
import listEdit from '../list/edit.ts';
import listRemove from '../list/remove.ts';
import listGet from '../list/get.ts';
import listFind from '../list/find.ts';
import listPersonBind from '../list/person/bind.ts';
import listPersonDismiss from '../list/person/dismiss.ts';
import listPersonFind from '../list/person/find.ts';
import activityListFind from '../activity/list/find.ts';
import activitySpeakerFind from '../activity/speaker/find.ts';
import activitySponsorFind from '../activity/sponsor/find.ts';
import activityTagFind from '../activity/tag/find.ts';

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
