import { parseProgram, type Session } from '../../../src/shared/schedule/program.ts';
import { callAll } from '../internal/paged.ts';
import { eventRead, type ReadStore } from './read.ts';
import type { EventInfo } from './event.ts';

/**
 * The program of an event (activity.find, every page of it), shared page-wide. Its rows are read as
 * the activity wire row's type (parseProgram, src/shared/wire/activity.ts): a field the row drops does
 * not compile here. No zod at run time: the schema would weigh more than the agenda's whole budget.
 */
export function programOf(api: string, event: EventInfo): ReadStore<Session[]> {
  return eventRead('activity.find', api, event, (grant) =>
    callAll(api, 'activity.find', { eventID: event.eventID, grant }).then(parseProgram),
  );
}
