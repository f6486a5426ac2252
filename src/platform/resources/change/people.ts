// Jobs that follow the attendees the change log names (webhooks/feed.ts's followers): registrations'
// confirmation e-mails (resources/email/confirmation.ts) and their address checks
// (resources/sanity/job.ts). A change of an operation that makes or edits an attendee names them in
// its ids (`personID`, kernel/changes.ts); a round's people become one job per BATCH of them.

/** A change as the feed reads it, as far as its people go. */
export interface PersonChange {
  readonly changeID: number;
  readonly operation: string;
  readonly eventID: number | null;
  readonly ids: string;
}

/** A job of people, [eventID, personID], keyed by its first change. */
export interface PeopleJob {
  readonly payload: { people: [number, number][] };
  readonly options: { key: string };
}

/** People per job: enough that a job's claim is a small share, few enough to spread over the slots. */
export const PEOPLE_BATCH = 25;

/** The event and person a change of one of `operations` names, or undefined. */
export function personOf(c: PersonChange, operations: ReadonlySet<string>): [number, number] | undefined {
  if (!operations.has(c.operation) || c.eventID === null || !c.ids) return undefined;
  const personID = (JSON.parse(c.ids) as { personID?: unknown }).personID;
  return typeof personID === 'number' ? [c.eventID, personID] : undefined;
}

/**
 * The jobs of `people` ([eventID, personID, changeID], in change order): one per PEOPLE_BATCH, keyed
 * `change:<its first changeID>`, so that a round fed again (a crash before its commit) adds nothing new.
 */
export function peopleJobs(people: readonly (readonly [number, number, number])[]): PeopleJob[] {
  const jobs: PeopleJob[] = [];
  for (let i = 0; i < people.length; i += PEOPLE_BATCH) {
    const batch = people.slice(i, i + PEOPLE_BATCH);
    jobs.push({
      payload: { people: batch.map(([e, p]) => [e, p] as [number, number]) },
      options: { key: `change:${batch[0][2]}` },
    });
  }
  return jobs;
}
