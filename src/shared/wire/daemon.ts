import { z } from 'zod';
import { id, s } from './values.ts';

/** One refused item of a bulk daemon: its place in `resources`, the resource, and the refusal's line. */
export const daemonErrorWire = z.object({
  /** 0-based place of the item in `resources`. */
  item: z.string(),
  /** The item's id ('' for an item that is an object, such as a person to create). */
  resource: s,
  /** What the single operation answered, one `NNN message` line. */
  error: z.string(),
});

/**
 * A bulk daemon as daemon.bulk and daemon.find answer it (spec §4.8; the fields are Podium's,
 * docs/api/daemons.md).
 */
export const daemonWire = z.object({
  daemonID: id,
  companyID: id,
  eventID: id,
  /** Who asked. */
  memberID: id,
  /** The daemon operation: `bulk`. */
  operation: z.string(),
  /** The row of the targets table (the single operation each item runs), e.g. activity.person.bind. */
  target: z.string(),
  /** The fixed object every item is applied to ('0': none). */
  targetID: z.string(),
  resourceID: z.string(),
  /** What each item of resources is: person, activity, tag. */
  resourceType: z.string(),
  /** queued, running, done or failed. */
  state: z.enum(['queued', 'running', 'done', 'failed']),
  /** Items in resources. */
  total: z.string(),
  /** Items processed so far (applied + failed). */
  progress: z.string(),
  applied: z.string(),
  failed: z.string(),
  /** Per-item refusals, in item order (daemon.find shows the first 100; `failed` counts them all). */
  errors: z.array(daemonErrorWire),
  /** Why the whole daemon stopped ('' otherwise), one `NNN message` line. */
  error: s,
  /** When it was asked for, started and finished: Unix seconds ('0' until then). */
  date: z.string(),
  started: z.string(),
  finished: z.string(),
});
export type Daemon = z.infer<typeof daemonWire>;
