import { z } from 'zod';
import { s } from './values.ts';

/**
 * An error report (spec §7.6: personID, platform, message, date, solved; docs/api/errors.md) as error.find
 * lists it. error.get adds the crash-report fields. Secrets were redacted before it was stored.
 */
export const errorReportWire = z.object({
  errorID: z.string(),
  /** '0': reported without a token. */
  personID: z.string(),
  /** The event and company it was filed under; '' when none. */
  eventID: s,
  companyID: s,
  platform: z.string(),
  message: z.string(),
  build: s,
  /** Unix seconds. */
  date: z.string(),
  solved: z.string(),
  /** error.get only: the crash-report fields and the raw JSON body ('' in lists). */
  stackTrace: s,
  initialConfiguration: s,
  json: s,
});
export type ErrorReport = z.infer<typeof errorReportWire>;

/** error.create's answer: the report's id and nothing of what was sent (it may hold secrets). */
export const errorCreatedWire = z.object({
  errorID: z.string(),
  personID: z.string(),
  date: z.string(),
  solved: z.string(),
});
