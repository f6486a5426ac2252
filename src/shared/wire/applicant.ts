import { z } from 'zod';
import { id, s, strings } from './values.ts';

/**
 * An application to an event (event.applicant.*, docs/api/applicants.md): the profile the applicant
 * sent and whether an admin has approved it. Spec §2.6 lists no applicant row; these are Podium's.
 */
export const applicantWire = z.object({
  eventID: id,
  personID: id,
  ...strings('name', 'firstName', 'lastName', 'username', 'email', 'role', 'company', 'telephone', 'origin'),
  /** 0: waiting for a decision; 1: approved (the person is an attendee). */
  approved: s,
  /** When the application was made, and when it was approved (0: not yet), Unix seconds. */
  date: s,
  approvedDate: s,
});
export type Applicant = z.infer<typeof applicantWire>;
