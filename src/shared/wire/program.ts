import { z } from 'zod';
import { id, s } from './values.ts';

/** What a program change did to a session (activity.changes `kinds`, comma-separated). */
export const PROGRAM_CHANGE_KINDS = ['added', 'removed', 'moved', 'room', 'renamed', 'speakers'] as const;
export type ProgramChangeKind = (typeof PROGRAM_CHANGE_KINDS)[number];

/**
 * One row of activity.changes (Podium extension, docs/api.md "Program changelog"): one session in one
 * write that changed the event's program. `version` grows by one per such write (rows of one write share
 * it). The new fields are the session after the write ('' for a removed one), the old* fields before it
 * ('' for an added one); dates are Unix seconds; speakers are names, sorted, separated by ", ".
 */
export const programChangeWire = z.object({
  version: id,
  date: id,
  eventID: id,
  activityID: id,
  kinds: s,
  name: s,
  location: s,
  dateBegin: s,
  dateEnd: s,
  speakers: s,
  oldName: s,
  oldLocation: s,
  oldDateBegin: s,
  oldDateEnd: s,
  oldSpeakers: s,
});
export type ProgramChange = z.infer<typeof programChangeWire>;
