import { badRequest, notFound } from '../../../errors.ts';
import { tagKindOf } from '../../tag/repository.ts';
import { pairOperations } from '../../../kernel/pairs.ts';

// The relations of an activity (spec §4.5): its speakers, sponsors and tags, the chains it is in and
// the lists it is limited to. Binding again, or dismissing what is not bound, changes nothing.

/** An activity's speaker or sponsor: activity.<noun>.bind and .dismiss, owned by the activity. */
const peopleOf = (noun: 'speaker' | 'sponsor', table: 'activitySpeaker' | 'activitySponsor') =>
  pairOperations({
    module: `activity.${noun}`,
    table,
    owner: { param: 'activityID', description: 'the activity' },
    other: { param: `${noun}ID`, table: noun, description: `the ${noun}, in the event of the activity` },
    summaries: { bind: `Adds a ${noun} to an activity.`, dismiss: `Removes a ${noun} from an activity.` },
  });

/** A chain or list holding activities: activity.<noun>.bind and .dismiss, owned by the chain or list. */
const groupOf = (
  noun: 'chain' | 'list',
  table: 'activityChain' | 'activityList',
  summaries: { bind: string; dismiss: string },
) =>
  pairOperations({
    module: `activity.${noun}`,
    table,
    owner: { param: `${noun}ID`, description: `the ${noun}` },
    other: { param: 'activityID', table: 'activity', description: `the activity, in the event of the ${noun}` },
    summaries,
  });

export const activityPairOperations = [
  ...peopleOf('speaker', 'activitySpeaker'),
  ...peopleOf('sponsor', 'activitySponsor'),
  ...pairOperations({
    module: 'activity.tag',
    table: 'activityTag',
    owner: { param: 'activityID', description: 'the activity' },
    other: {
      param: 'tagID',
      description: 'an activity tag of the event of the activity',
      dismissDescription: 'a tag of the event of the activity',
    },
    summaries: {
      bind: 'Tags an activity with an activity tag of its event.',
      dismiss: 'Removes a tag from an activity.',
    },
    // A tag of another event or a company-wide tag is 404 tag; binding a tag of the event of another
    // kind (an attendee type) is 400. Dismissing takes off any tag of the event.
    async check(ctx, tagID, action) {
      const kind = await tagKindOf(ctx.db, ctx.access!.eventID!, tagID);
      if (kind === undefined) throw notFound('tag');
      if (action === 'bind' && kind !== 'activity') throw badRequest('tagID must be an activity tag');
    },
  }),
  ...groupOf('chain', 'activityChain', {
    bind: 'Adds an activity to a chain of its event.',
    dismiss: 'Removes an activity from a chain.',
  }),
  ...groupOf('list', 'activityList', {
    bind: 'Limits an activity to the members of a list (one of its lists).',
    dismiss: 'Unlinks a list from an activity.',
  }),
];
