import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { conflict } from '../../errors.ts';
import { editKey, type EditKey } from '../../edit.ts';
import { lockRow } from '../../db/lock.ts';
import { color, nonBlank } from '../hotsite/content.ts';

/**
 * Kinds of the tags an event owns (tag.* operations). `activity`: tracks and topics of activities
 * (activity.tag.bind, the schedule's filters). `attendee`: attendee types, offered by registration
 * through `tagIDs`. Tags of kind `event` are not the event's: they belong to the company (eventID
 * empty), classify its events (company.event.find `tags`) and are not listed or changed by tag.*.
 */
export const TAG_KINDS = ['activity', 'attendee'] as const;
export type TagKind = (typeof TAG_KINDS)[number];
export const TAG_KIND_DEFAULT: TagKind = 'activity';

export const tagKind = z.enum(TAG_KINDS, `must be one of ${TAG_KINDS.join(', ')}`);

/** Field schemas, shared by tag.create (B params) and tag.edit (keys). */
export const TAG_FIELD = { name: nonBlank(100), color, kind: tagKind };

/** tag.edit keys. `kind` only while the tag is unused (no activity or attendee carries it). */
export const TAG_KEYS: Record<string, EditKey> = {
  name: editKey(TAG_FIELD.name),
  color: editKey(TAG_FIELD.color, { clear: '' }),
  kind: editKey(TAG_FIELD.kind),
};

const COLUMNS = ['tagID', 'eventID', 'companyID', 'name', 'color', 'kind'] as const;

/** The tags the event owns (eventID set); the company's event tags are not among them. */
export function tagQuery(db: Kysely<DB>) {
  return db.selectFrom('tag').select(COLUMNS).where('eventID', 'is not', null);
}

export function tagByID(db: Kysely<DB>, tagID: number) {
  return tagQuery(db).where('tagID', '=', tagID).executeTakeFirst();
}

/**
 * Tag names are unique within an event and kind, whatever the case (409 otherwise). Takes the
 * event's row lock, so two concurrent creates of one name cannot both pass.
 */
export async function checkTagName(
  trx: Kysely<DB>,
  eventID: number,
  kind: string,
  name: string,
  tagID?: number,
): Promise<void> {
  await lockRow(trx, 'event', eventID);
  const rows = await trx
    .selectFrom('tag')
    .select(['tagID', 'name'])
    .where('eventID', '=', eventID)
    .where('kind', '=', kind)
    .$if(tagID !== undefined, (q) => q.where('tagID', '!=', tagID!))
    .execute();
  const lower = name.toLowerCase();
  if (rows.some((r) => r.name.toLowerCase() === lower))
    throw conflict(`the event already has an ${kind} tag named ${name}`);
}

/** Whether any activity or attendee carries the tag. */
export async function tagInUse(db: Kysely<DB>, tagID: number): Promise<boolean> {
  const activity = await db.selectFrom('activityTag').select('tagID').where('tagID', '=', tagID).executeTakeFirst();
  if (activity) return true;
  const person = await db.selectFrom('eventPersonTag').select('tagID').where('tagID', '=', tagID).executeTakeFirst();
  return person !== undefined;
}

/**
 * For other modules (activity.tag.bind, registration `tagIDs`): which of `tagIDs` are tags of this
 * event of this kind. Callers refuse the others (as missing: 404 / 400).
 */
export async function eventTagsOfKind(
  db: Kysely<DB>,
  eventID: number,
  kind: TagKind,
  tagIDs: readonly number[],
): Promise<number[]> {
  if (tagIDs.length === 0) return [];
  const rows = await db
    .selectFrom('tag')
    .select('tagID')
    .where('eventID', '=', eventID)
    .where('kind', '=', kind)
    .where('tagID', 'in', [...tagIDs])
    .execute();
  return rows.map((r) => r.tagID);
}
