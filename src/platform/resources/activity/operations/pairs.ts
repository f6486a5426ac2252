import { badRequest, notFound } from '../../../errors.ts';
import { tagKindOf } from '../../tag/repository.ts';
import { pairOperations } from '../../../kernel/pairs.ts';

// The relations of an activity (spec §4.5): its speakers, sponsors and tags, the chains it is in and
// the lists it is limited to. Binding again, or dismissing what is not bound, changes nothing.

export const activityPairOperations = [
  ...pairOperations({
    module: 'activity.speaker',
    table: 'activitySpeaker',
    owner: { param: 'activityID', description: 'the activity' },
    other: { param: 'speakerID', table: 'speaker', description: 'the speaker, in the event of the activity' },
    summaries: { bind: 'Adds a speaker to an activity.', dismiss: 'Removes a speaker from an activity.' },
  }),
  ...pairOperations({
    module: 'activity.sponsor',
    table: 'activitySponsor',
    owner: { param: 'activityID', description: 'the activity' },
    other: { param: 'sponsorID', table: 'sponsor', description: 'the sponsor, in the event of the activity' },
    summaries: { bind: 'Adds a sponsor to an activity.', dismiss: 'Removes a sponsor from an activity.' },
  }),
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
  ...pairOperations({
    module: 'activity.chain',
    table: 'activityChain',
    owner: { param: 'chainID', description: 'the chain' },
    other: { param: 'activityID', table: 'activity', description: 'the activity, in the event of the chain' },
    summaries: { bind: 'Adds an activity to a chain of its event.', dismiss: 'Removes an activity from a chain.' },
  }),
  ...pairOperations({
    module: 'activity.list',
    table: 'activityList',
    owner: { param: 'listID', description: 'the list' },
    other: { param: 'activityID', table: 'activity', description: 'the activity, in the event of the list' },
    summaries: {
      bind: 'Limits an activity to the members of a list (one of its lists).',
      dismiss: 'Unlinks a list from an activity.',
    },
  }),
];
