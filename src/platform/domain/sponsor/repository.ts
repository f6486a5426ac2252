import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import { email, text, url } from '../../schemas.ts';
import { editKey, type EditKey } from '../../edit.ts';
import { nonBlank, organizerHtml, position, telephone, without } from '../hotsite/content.ts';

/** The sponsor record (spec §2.5 Sponsor, plus tier, tierRank and position). */
const COLUMNS = [
  'sponsorID', 'eventID', 'companyName', 'name', 'telephone', 'email', 'website', 'bio', 'logo', 'category', 'tier',
  'tierRank', 'position',
] as const; // prettier-ignore

/** Contact data only the event's admins see. */
export const SPONSOR_PRIVATE = ['telephone', 'email'] as const;

export const TIER_RANK_MAX = 1000;
/** 1 is the first (top) tier; 0 means no tier and sorts after every tier. */
export const tierRank = z
  .string()
  .regex(/^\d{1,4}$/, `must be an integer from 0 to ${TIER_RANK_MAX}`)
  .transform(Number)
  .refine((n) => n <= TIER_RANK_MAX, `must be an integer from 0 to ${TIER_RANK_MAX}`);

/** Field schemas, shared by sponsor.create (B params) and sponsor.edit (keys). */
export const SPONSOR_FIELD = {
  name: nonBlank(200),
  companyName: text(200),
  telephone,
  email,
  website: url,
  bio: organizerHtml,
  logo: url,
  category: text(100),
  tier: text(60),
  tierRank,
  position,
};

/** sponsor.edit keys: every field; an empty value clears all but name. */
export const SPONSOR_KEYS: Record<string, EditKey> = {
  name: editKey(SPONSOR_FIELD.name),
  companyName: editKey(SPONSOR_FIELD.companyName, { clear: '' }),
  telephone: editKey(SPONSOR_FIELD.telephone, { clear: '' }),
  email: editKey(SPONSOR_FIELD.email, { clear: '' }),
  website: editKey(SPONSOR_FIELD.website, { clear: '' }),
  bio: editKey(SPONSOR_FIELD.bio, { clear: '' }),
  logo: editKey(SPONSOR_FIELD.logo, { clear: '' }),
  category: editKey(SPONSOR_FIELD.category, { clear: '' }),
  tier: editKey(SPONSOR_FIELD.tier, { clear: '' }),
  tierRank: editKey(SPONSOR_FIELD.tierRank, { clear: 0 }),
  position: editKey(SPONSOR_FIELD.position, { clear: 0 }),
};

export function sponsorQuery(db: Kysely<DB>) {
  return db.selectFrom('sponsor').select(COLUMNS);
}

export type SponsorRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sponsorQuery>['executeTakeFirst']>>>;

export function sponsorByID(db: Kysely<DB>, sponsorID: number) {
  return sponsorQuery(db).where('sponsorID', '=', sponsorID).executeTakeFirst();
}

/** The record as a viewer sees it: admins everything, everyone else without the contact fields. */
export function sponsorRecord(row: SponsorRow, admin: boolean): Record<string, unknown> {
  return admin ? { ...row } : without(row, SPONSOR_PRIVATE);
}
