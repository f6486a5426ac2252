import { z } from 'zod';
import { id, s } from './values.ts';

/**
 * A report of the download center, as download.find and every `format=excel-daemon` call answer it
 * (spec §2.6 Download: downloadID, companyID, eventID, memberID, title, event, type, url, date; the rest
 * are Podium's, docs/api/reports.md).
 */
export const downloadWire = z.object({
  downloadID: id,
  companyID: id,
  /** '0' for a report of the company rather than of one event. */
  eventID: z.string(),
  /** Who asked. */
  memberID: id,
  memberName: s,
  title: z.string(),
  /** The event's name ('' for a company report). */
  event: s,
  /** The operation whose answer the report holds (event.person.find). */
  type: z.string(),
  /** Where the file is fetched, with the caller's tokenID (or Authorization) added: download.file. */
  url: z.string(),
  /** When it was asked for, Unix seconds. */
  date: z.string(),
  /** queued, running, ready, failed or expired. */
  state: z.enum(['queued', 'running', 'ready', 'failed', 'expired']),
  /** Rows written so far (running) or in the file (ready). */
  progress: z.string(),
  /** Bytes of the file once ready, else '0'. */
  size: z.string(),
  /** When the file is deleted, Unix seconds ('0' until ready). */
  expires: z.string(),
  /** Why it failed, one line ('' otherwise). */
  error: s,
});
export type Download = z.infer<typeof downloadWire>;
