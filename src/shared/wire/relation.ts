// The relations of an activity (spec §2.5) and of a list: what activity.speaker.find, .sponsor.find,
// .tag.find, .list.find, activity.person.* and list.person.find answer, and the pair that a
// relation's bind and dismiss answer (activity.chain.find answers chains: ./chain.ts).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';
import { speakerWire } from './speaker.ts';
import { sponsorWire } from './sponsor.ts';

/** The two ids a relation's bind or dismiss names (`activityID` and `speakerID`, …), as it answers them. */
export function pairWire<A extends string, B extends string>(a: A, b: B) {
  return z.object({ [a]: id, [b]: id } as Record<A | B, typeof id>);
}

/** A speaker of an activity (activity.speaker.find with activityID; spec §2.5): the speaker's row, in part. */
export const activitySpeakerWire = speakerWire
  .pick({
    speakerID: true,
    eventID: true,
    name: true,
    headline: true,
    description: true,
    category: true,
    image: true,
    email: true,
    socialA: true,
    socialB: true,
    socialC: true,
  })
  .extend({ activityID: id });
export type ActivitySpeaker = z.infer<typeof activitySpeakerWire>;

/** A sponsor of an activity (activity.sponsor.find with activityID; spec §2.5 plus tier, tierRank). */
export const activitySponsorWire = sponsorWire.omit({ position: true }).extend({ activityID: id });
export type ActivitySponsor = z.infer<typeof activitySponsorWire>;

/** A tag of an activity (activity.tag.find; spec §2.5 activityID, tagID, plus the tag's name and color). */
export const activityTagWire = z.object({ activityID: id, tagID: id, eventID: s, name: s, color: s });
export type ActivityTag = z.infer<typeof activityTagWire>;

/** A list an activity is limited to (activity.list.find; spec §2.5 activityID, listID, plus the list's name). */
export const activityListWire = z.object({ activityID: id, listID: id, eventID: s, name: s });
export type ActivityList = z.infer<typeof activityListWire>;

/** A member of a list (list.person.find): the name and e-mail the list's event has of them. */
export const listMemberWire = z.object({ listID: id, personID: id, name: s, email: s });
export type ListMember = z.infer<typeof listMemberWire>;

/**
 * An attendee of an activity (activity.person.find, .get, .bind, .operate; spec §2.5), with the name
 * and e-mail the event has of them. Someone not enrolled reads approved −1 and enrollmentID ''.
 */
export const activityPersonWire = z.object({
  activityID: id,
  eventID: s,
  enrollmentID: s,
  personID: id,
  name: s,
  email: s,
  /** Place in the waiting list. */
  position: s,
  /** −1 not registered, 0 waiting, 1 approved (spec §3). */
  approved: s,
  ...strings('paid', 'present', 'priori', 'rating', 'dateCreated'),
});
export type ActivityPerson = z.infer<typeof activityPersonWire>;

/** activity.person.dismiss: the record as it now is, and `dismissed` 1 (0: the person was not enrolled). */
export const activityPersonDismissedWire = activityPersonWire.extend({ dismissed: s });

/** activity.person.calculate: the participant numbers of an activity; '' stands for "no limit". */
export const participationWire = z.object({
  activityID: id,
  ...strings(
    'capacity',
    'oversize',
    'approved',
    'waiting',
    'attending',
    'paid',
    'present',
    'remaining',
    'openings',
    'waitingList',
    'full',
  ),
});
export type Participation = z.infer<typeof participationWire>;
