// The company (company.get, company.find; spec §2.6 Company plus Podium's namespace, mainColor,
// location): its branding, its apps and where its site lives; and a person of the company.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';

export const companyWire = z.object({
  companyID: id,
  /** The company's public nickname: /{namespace}. */
  namespace: s,
  ...strings(
    'shortName',
    'storeTitle',
    'appIcon',
    'storeIcon',
    'cover',
    'splash',
    'androidBundle',
    'iosBundle',
    'androidApp',
    'iosApp',
    'agreement',
    'keywords',
  ),
  /** Theme: page background (#rrggbb). */
  backgroundColor: s,
  navigationBarBackgroundColor: s,
  /** Theme: primary color (#rrggbb). */
  mainColor: s,
  ...strings('location', 'androidVersion', 'iosVersion', 'language', 'currency'),
  /** Store-review queue flags: the company's admins only ('' for everyone else). */
  androidReview: s,
  iosReview: s,
  initialDemo: s,
});
export type Company = z.infer<typeof companyWire>;

/** A person of a company (company.person.*; spec §2.6 Company admin): level 4 admin, 1 external. */
export const companyPersonWire = z.object({ personID: id, name: s, email: s, level: s });
export type CompanyPerson = z.infer<typeof companyPersonWire>;
