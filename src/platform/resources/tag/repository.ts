import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { conflict } from '../../errors.ts';
import { lockRow } from '../../db/lock.ts';
import { nonBlank } from '../../schemas.ts';
import { color } from '../hotsite/content.ts';
import { defineResource, field } from '../crud/resource.ts';
import { tagWire } from '../../../shared/wire/tag.ts';

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

/**
 * The tag of an event, declared once. `companyID` is the event's company, set by tag.create; `kind`
 * cannot be emptied (it may change only while the tag is unused: tag.edit's rule).
 */
export const TAG = defineResource({
  table: 'tag',
  id: 'tagID',
  what: 'tag',
  wire: tagWire,
  also: ['companyID'],
  fields: {
    name: field(nonBlank(100), 'tag name', { required: true }),
    color: field(color, 'colour as #rrggbb', { clear: '' }),
    kind: field(tagKind, `${TAG_KINDS.join(' or ')} (default ${TAG_KIND_DEFAULT})`, { default: TAG_KIND_DEFAULT }),
  },
  order: [{ lower: 'name' }, 'tagID'],
});

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

/** The kind of a tag of the event (undefined: not a tag of this event). */
export async function tagKindOf(db: Kysely<DB>, eventID: number, tagID: number): Promise<string | undefined> {
  const tag = await db.selectFrom('tag').select(['eventID', 'kind']).where('tagID', '=', tagID).executeTakeFirst();
  return tag && tag.eventID === eventID ? tag.kind : undefined;
}
