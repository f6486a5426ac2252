import { sql } from 'kysely';
import { z } from 'zod';
import { email, nonBlank, text, url } from '../../schemas.ts';
import { organizerHtml, position, telephone } from '../hotsite/content.ts';
import { defineResource, field } from '../crud/resource.ts';
import { sponsorWire } from '../../../shared/wire/sponsor.ts';

export const TIER_RANK_MAX = 1000;
/** 1 is the first (top) tier; 0 means no tier and sorts after every tier. */
export const tierRank = z
  .string()
  .regex(/^\d{1,4}$/, `must be an integer from 0 to ${TIER_RANK_MAX}`)
  .transform(Number)
  .refine((n) => n <= TIER_RANK_MAX, `must be an integer from 0 to ${TIER_RANK_MAX}`);

/**
 * The sponsor (spec §2.5 Sponsor, plus tier, tierRank and position), declared once. Lists go by tier
 * (tierRank 1 first, 0 — no tier — last), then position, then name; only the event's admins see the
 * contact fields.
 */
export const SPONSOR = defineResource({
  table: 'sponsor',
  id: 'sponsorID',
  what: 'sponsor',
  wire: sponsorWire,
  fields: {
    companyName: field(text(200), 'legal name of the sponsoring company', { clear: '' }),
    name: field(nonBlank(200), 'the name the site shows', { required: true }),
    telephone: field(telephone, 'contact telephone (event admins only)', { clear: '', private: true }),
    email: field(email, 'contact e-mail (event admins only)', { clear: '', private: true }),
    website: field(url, 'website URL', { clear: '' }),
    bio: field(organizerHtml, 'about the sponsor (HTML, sanitized)', { clear: '' }),
    logo: field(url, 'logo URL (http or https)', { clear: '' }),
    category: field(text(100), 'free grouping, e.g. Media partner', { clear: '' }),
    tier: field(text(60), 'tier shown on the site, e.g. Gold', { clear: '' }),
    tierRank: field(tierRank, 'tier order: 1 first; 0 (default) no tier, shown last', { clear: 0 }),
    position: field(position, 'order inside the tier, 0 first (default 0)', { clear: 0 }),
  },
  order: [
    { raw: sql`case when ${sql.ref('tierRank')} = 0 then 1 else 0 end` },
    'tierRank',
    'position',
    { lower: 'name' },
    'sponsorID',
  ],
});
