import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ProgramChangeKind } from '../../../shared/wire/program.ts';

// What a visitor sees of an event's program, reduced to what its changelog tells: each session's name,
// room, times and speakers. Taken before and after a write (src/platform/resources/program/watch.ts),
// the two snapshots say what the write changed, whichever operation wrote and however (an edit, a delay
// of many sessions, a copy, a speaker renamed, a removal by cascade).

export interface Session {
  readonly name: string;
  readonly location: string;
  readonly dateBegin: number;
  readonly dateEnd: number;
  /** Names, sorted, separated by ", ". */
  readonly speakers: string;
}

export type Program = ReadonlyMap<number, Session>;

/** One session's change between two snapshots. */
export interface SessionChange {
  readonly activityID: number;
  readonly kinds: readonly ProgramChangeKind[];
  readonly after: Session | undefined;
  readonly before: Session | undefined;
}

/** The program of `eventID` as the store holds it now (inside a write: as the write sees it). */
export async function programOf(db: Kysely<DB>, eventID: number): Promise<Program> {
  const [activities, speakers] = await Promise.all([
    db
      .selectFrom('activity')
      .select(['activityID', 'name', 'location', 'dateBegin', 'dateEnd'])
      .where('eventID', '=', eventID)
      .execute(),
    db
      .selectFrom('activitySpeaker')
      .innerJoin('speaker', 'speaker.speakerID', 'activitySpeaker.speakerID')
      .select(['activitySpeaker.activityID', 'speaker.name'])
      .where('speaker.eventID', '=', eventID)
      .execute(),
  ]);
  const names = new Map<number, string[]>();
  for (const s of speakers) {
    const id = Number(s.activityID);
    names.set(id, [...(names.get(id) ?? []), s.name]);
  }
  return new Map(
    activities.map((a) => {
      const id = Number(a.activityID);
      const speakerNames = (names.get(id) ?? []).sort((x, y) => x.localeCompare(y)).join(', ');
      const session = {
        name: a.name,
        location: a.location,
        dateBegin: Number(a.dateBegin),
        dateEnd: Number(a.dateEnd),
        speakers: speakerNames,
      };
      return [id, session];
    }),
  );
}

/** What changed from `before` to `after`, by activityID. */
export function diffPrograms(before: Program, after: Program): SessionChange[] {
  const changes: SessionChange[] = [];
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  for (const activityID of ids) {
    const old = before.get(activityID);
    const now = after.get(activityID);
    const kinds: ProgramChangeKind[] = [];
    if (!old) kinds.push('added');
    else if (!now) kinds.push('removed');
    else {
      if (old.dateBegin !== now.dateBegin || old.dateEnd !== now.dateEnd) kinds.push('moved');
      if (old.location !== now.location) kinds.push('room');
      if (old.name !== now.name) kinds.push('renamed');
      if (old.speakers !== now.speakers) kinds.push('speakers');
    }
    if (kinds.length > 0) changes.push({ activityID, kinds, after: now, before: old });
  }
  return changes;
}
