import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Speaker fields of spec §2.5 (the spec's "e-mail" is `email`). */
export const SPEAKER_FIELDS = [
  'speaker.speakerID', 'speaker.eventID', 'speaker.name', 'speaker.headline', 'speaker.description',
  'speaker.category', 'speaker.image', 'speaker.email', 'speaker.socialA', 'speaker.socialB', 'speaker.socialC',
] as const; // prettier-ignore

/** Sponsor fields of spec §2.5, plus Podium's tier and tierRank (the site groups sponsors by tier). */
export const SPONSOR_FIELDS = [
  'sponsor.sponsorID', 'sponsor.eventID', 'sponsor.companyName', 'sponsor.name', 'sponsor.telephone',
  'sponsor.email', 'sponsor.website', 'sponsor.bio', 'sponsor.logo', 'sponsor.category', 'sponsor.tier',
  'sponsor.tierRank',
] as const; // prettier-ignore

/** The speakers of an activity, in the order of the site (position, then name). */
export function activitySpeakers(db: Kysely<DB>, activityID: number) {
  return db
    .selectFrom('activitySpeaker')
    .innerJoin('speaker', 'speaker.speakerID', 'activitySpeaker.speakerID')
    .select('activitySpeaker.activityID')
    .select(SPEAKER_FIELDS)
    .where('activitySpeaker.activityID', '=', activityID);
}

/** The sponsors of an activity. */
export function activitySponsors(db: Kysely<DB>, activityID: number) {
  return db
    .selectFrom('activitySponsor')
    .innerJoin('sponsor', 'sponsor.sponsorID', 'activitySponsor.sponsorID')
    .select('activitySponsor.activityID')
    .select(SPONSOR_FIELDS)
    .where('activitySponsor.activityID', '=', activityID);
}

/** The tags of an activity (spec §2.5 Activity tag: activityID, tagID; plus the tag's name and color). */
export function activityTags(db: Kysely<DB>, activityID: number) {
  return db
    .selectFrom('activityTag')
    .innerJoin('tag', 'tag.tagID', 'activityTag.tagID')
    .select(['activityTag.activityID', 'tag.tagID', 'tag.eventID', 'tag.name', 'tag.color'])
    .where('activityTag.activityID', '=', activityID);
}
