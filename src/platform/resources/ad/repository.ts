import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import { bit, id, url } from '../../schemas.ts';
import { notFound } from '../../errors.ts';
import { defineResource, field } from '../crud/resource.ts';
import { adWire } from '../../../shared/wire/ad.ts';

// The ad (spec §2.6 Ad), declared once; its operations come from the resource factory (kernel/crud.ts)
// but for ad.find, which answers what to show (operations/index.ts).

export const WEIGHT_MAX = 1000;
export const weight = z
  .string()
  .regex(/^\d{1,4}$/, `must be an integer from 0 to ${WEIGHT_MAX}`)
  .transform(Number)
  .refine((n) => n <= WEIGHT_MAX, `must be an integer from 0 to ${WEIGHT_MAX}`);

export const AD = defineResource({
  table: 'ad',
  id: 'adID',
  what: 'ad',
  wire: adWire,
  fields: {
    sponsorID: field(id, 'the sponsor of the event the ad is of', { required: true }),
    image: field(url, 'image URL (http or https)', { clear: '' }),
    link: field(url, 'where a click goes (http or https)', { clear: '' }),
    weight: field(weight, `priority against the other ads, 0 to ${WEIGHT_MAX} (default 1; 0: never shown)`, { default: 1 }), // prettier-ignore
    main: field(bit, '1: shown in the event information section (default 0)', { default: 0 }),
    splash: field(bit, '1: shown full screen when the app opens (default 1, the default format)', { default: 1 }),
  },
  order: ['adID'],
});

/** A sponsor of another event, or none, is the same `404 sponsor not found` as an unknown one. */
export async function checkSponsor(db: Kysely<DB>, eventID: number, sponsorID: number): Promise<void> {
  const row = await db
    .selectFrom('sponsor')
    .select('sponsorID')
    .where('sponsorID', '=', sponsorID)
    .where('eventID', '=', eventID)
    .executeTakeFirst();
  if (!row) throw notFound('sponsor');
}

/** The ads to show of an event in one place (or every place), heaviest first, weight 0 left out. */
export function adsToShow(db: Kysely<DB>, eventID: number, placement: 'main' | 'splash' | undefined) {
  let q = db
    .selectFrom('ad')
    .innerJoin('sponsor', 'sponsor.sponsorID', 'ad.sponsorID')
    .select([
      'ad.adID',
      'ad.eventID',
      'ad.sponsorID',
      'ad.image',
      'ad.link',
      'ad.weight',
      'ad.main',
      'ad.splash',
      'sponsor.name as sponsorName',
    ])
    .where('ad.eventID', '=', eventID)
    .where('ad.weight', '>', 0);
  if (placement === 'main') q = q.where('ad.main', '=', 1);
  if (placement === 'splash') q = q.where('ad.splash', '=', 1);
  return q.orderBy('ad.weight', 'desc').orderBy('ad.adID').limit(100).execute();
}
