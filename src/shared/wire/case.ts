// Case studies (spec §2.6 Case study; docs/api/cases.md). Every value is a string on the wire.

import { z } from 'zod';
import { id, s } from './values.ts';

/** An event's case study (case.edit, case.get, case.find). */
export const caseWire = z.object({
  caseID: id,
  eventID: id,
  /** The event's name (Podium extension: a list of case studies names what each is of). */
  eventName: s,
  attendees: s,
  downloads: s,
  impressions: s,
  headline: s,
  /** Organizer HTML (sanitized by the platform). */
  challenges: s,
  /** Organizer HTML (sanitized by the platform). */
  solution: s,
  /** Organizer HTML (sanitized by the platform). */
  results: s,
  /** A video's key at its host (e.g. a YouTube id). */
  videoKey: s,
  /** A slide deck's key at its host. */
  slideKey: s,
  /** Unix seconds of the last edit. */
  date: s,
  /** '1': published (case.find lists it, case.get shows it to anyone). */
  active: s,
});
export type CaseStudy = z.infer<typeof caseWire>;
