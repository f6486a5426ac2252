// The company (company.get public shape): its branding and where its site lives.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const companyWire = z.object({
  companyID: id,
  /** The company's public nickname: /{namespace}. */
  namespace: s,
  shortName: s,
  storeTitle: s,
  cover: s,
  appIcon: s,
  /** Theme: primary color (#rrggbb). */
  mainColor: s,
  /** Theme: page background (#rrggbb). */
  backgroundColor: s,
  language: s,
  keywords: s,
});
export type Company = z.infer<typeof companyWire>;
