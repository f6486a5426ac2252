import { activityLinksOperation } from '../../../kernel/pairs.ts';
import { chainedActivitiesPage, chainsOfActivityPage, listsOfActivityPage } from '../../relation/pages.ts';

/** Spec §4.5. The chains an activity belongs to, as chain.find shows them. */
export const activityChainFind = activityLinksOperation({
  name: 'activity.chain.find',
  summary: 'Lists the chains of an activity.',
  read: chainsOfActivityPage,
});

/**
 * Spec §4.5. The other activities that share a chain with this one (each once, by dateBegin), as
 * activity records with the caller's own enrollment state: what enrolling here would conflict with.
 */
export const activityChainFindChainedActivities = activityLinksOperation({
  name: 'activity.chain.findChainedActivities',
  summary: 'Lists the other activities sharing a chain with an activity.',
  read: chainedActivitiesPage,
});

/**
 * Spec §4.5. The lists an activity is limited to (activityID, listID, eventID, name), by name; no
 * members or counts, which only admins read (list.get). Empty: the activity is open to everyone.
 */
export const activityListFind = activityLinksOperation({
  name: 'activity.list.find',
  summary: 'Lists the lists an activity is limited to.',
  read: listsOfActivityPage,
});
