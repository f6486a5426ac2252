import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { activityWire } from '../../../shared/wire/activity.ts';
import { recordOf, type RecordOf } from '../records.ts';

/** Columns of spec §2.4 read from the activity table (the record adds the viewer's state and arrays). */
const COLUMNS = [
  'activity.activityID', 'activity.eventID', 'activity.placeID', 'activity.name', 'activity.description',
  'activity.latitude', 'activity.longitude', 'activity.location', 'activity.dateBegin', 'activity.dateEnd',
  'activity.capacity', 'activity.oversize', 'activity.general', 'activity.highlight', 'activity.stream',
  'activity.lockOperations',
] as const; // prettier-ignore

export type ActivityRow = Awaited<ReturnType<typeof activityRows>>[number];

/** The activity columns of the record, for a query the caller narrows (where, order, limit). */
export function activityQuery(db: Kysely<DB>) {
  return db.selectFrom('activity').select(COLUMNS);
}

export function activityRows(db: Kysely<DB>, activityIDs: readonly number[]) {
  if (activityIDs.length === 0) return Promise.resolve([]);
  return activityQuery(db).where('activity.activityID', 'in', activityIDs).execute();
}

/** An activity record: exactly the keys of its wire row (the record below does not compile otherwise). */
export type ActivityRecord = RecordOf<typeof activityWire>;
const activityRecord = recordOf(activityWire);

export interface ActivityViewer {
  personID: number;
}

/**
 * Activity records of spec §2.4, in the order of `rows`: each with its `speakers` and `tags` arrays
 * and, for a viewer, `personID`, `approved` (−1 not registered, 0 waiting, 1 approved), `priori` and
 * `position` (their place in the waiting list, 1…n; 0 otherwise: "my sessions" of the /me page).
 * Three queries whatever the number of activities (no query per row).
 */
export async function activityRecords(
  db: Kysely<DB>,
  rows: readonly ActivityRow[],
  viewer?: ActivityViewer,
): Promise<ActivityRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.activityID);
  // Chunks keep the IN list under SQLite's bound-parameter limit for large programs.
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += 500) chunks.push(ids.slice(i, i + 500));
  const [speakers, tags, mine] = await Promise.all([
    Promise.all(
      chunks.map((chunk) =>
        db
          .selectFrom('activitySpeaker')
          .innerJoin('speaker', 'speaker.speakerID', 'activitySpeaker.speakerID')
          .select([
            'activitySpeaker.activityID',
            'speaker.speakerID',
            'speaker.name',
            'speaker.headline',
            'speaker.image',
          ])
          .where('activitySpeaker.activityID', 'in', chunk)
          .orderBy('speaker.position')
          .orderBy('speaker.name')
          .execute(),
      ),
    ).then((r) => r.flat()),
    Promise.all(
      chunks.map((chunk) =>
        db
          .selectFrom('activityTag')
          .innerJoin('tag', 'tag.tagID', 'activityTag.tagID')
          .select(['activityTag.activityID', 'tag.tagID', 'tag.name', 'tag.color'])
          .where('activityTag.activityID', 'in', chunk)
          .orderBy('tag.name')
          .execute(),
      ),
    ).then((r) => r.flat()),
    viewer
      ? Promise.all(
          chunks.map((chunk) =>
            db
              .selectFrom('activityPerson')
              .select(['activityID', 'approved', 'priori', 'position'])
              .where('personID', '=', viewer.personID)
              .where('activityID', 'in', chunk)
              .execute(),
          ),
        ).then((r) => r.flat())
      : [],
  ]);
  const group = <T extends { activityID: number }>(list: T[]) => {
    const map = new Map<number, Omit<T, 'activityID'>[]>();
    for (const { activityID, ...rest } of list) {
      const arr = map.get(activityID);
      if (arr) arr.push(rest);
      else map.set(activityID, [rest]);
    }
    return map;
  };
  const bySpeaker = group(speakers);
  const byTag = group(tags);
  const enrolled = new Map(mine.map((m) => [m.activityID, m]));
  return rows.map((r) => {
    const e = enrolled.get(r.activityID);
    return activityRecord({
      ...r,
      latitude: r.latitude ?? '',
      longitude: r.longitude ?? '',
      personID: viewer?.personID ?? '',
      approved: e?.approved ?? -1,
      priori: e?.priori ?? 0,
      position: e?.position ?? 0,
      speakers: bySpeaker.get(r.activityID) ?? [],
      tags: byTag.get(r.activityID) ?? [],
    });
  });
}
