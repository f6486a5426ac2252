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

/** A bulk operation (daemon.bulk, daemon.find; docs/api/daemons.md). */
export const daemonWire = z.object({
  daemonID: id,
  eventID: id,
  memberID: id,
  operation: z.string(),
  target: z.string(),
  resourceType: z.string(),
  /** queued, running, done (every item tried) or failed (all-or-nothing targets: nothing applied). */
  state: z.enum(['queued', 'running', 'done', 'failed']),
  total: z.string(),
  /** Items tried so far. */
  done: z.string(),
  /** Items that failed. */
  failed: z.string(),
  /** JSON array of {item, error}: each failed item and why (the first 1000). */
  errors: z.string(),
  date: z.string(),
  finished: z.string(),
});
export type Daemon = z.infer<typeof daemonWire>;
