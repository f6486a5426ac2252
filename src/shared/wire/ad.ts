// Ads (spec §2.6 Ad; docs/api/ads.md). Every value is a string on the wire.

import { z } from 'zod';
import { id, s } from './values.ts';

/** An ad (ad.create, ad.edit, ad.remove). */
export const adWire = z.object({
  adID: id,
  eventID: id,
  /** The sponsor of the event the ad is of. */
  sponsorID: id,
  /** Image URL (http or https). */
  image: s,
  /** Where a click goes (http or https); '' for none. */
  link: s,
  /** Priority: how often it is shown against the other ads of the same place (0: never shown). */
  weight: s,
  /** '1': shown in the event's information section (the website's sponsor area). */
  main: s,
  /** '1': shown full screen when the app opens and every 10 minutes of use (the default format). */
  splash: s,
});
export type Ad = z.infer<typeof adWire>;

/** An ad as ad.find lists it for the event's pages: with its sponsor's name and its share of the showings. */
export const adFindWire = adWire.extend({
  sponsorName: s,
  /** Percent of the showings it gets among the ads of the answer (weight over the sum of weights), e.g. `62.50`. */
  share: s,
});
export type AdShown = z.infer<typeof adFindWire>;
