import { parseProgram, type Session } from '../../../src/shared/schedule/program.ts';
import { callAll } from '../internal/api.ts';
import { eventRead, type ReadStore } from './read.ts';
import type { EventInfo } from './event.ts';

/** The program of an event (activity.find, every page of it), shared page-wide. */
export function programOf(api: string, event: EventInfo): ReadStore<Session[]> {
  return eventRead('activity.find', api, event, (grant) =>
    callAll(api, 'activity.find', { eventID: event.eventID, grant }).then(parseProgram),
  );
}
