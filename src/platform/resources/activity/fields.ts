import { z } from 'zod';
import { bit, MAX_ID, nonBlank, number, text, timestamp } from '../../schemas.ts';
import { editKey, type EditKey } from '../../edit.ts';
import { sanitizeOrganizerHtml } from '../html.ts';

// The schemas of the activity fields (spec §2.4), shared by activity.create (one or a CSV file) and
// activity.edit, so every route validates a field the same way.

/** A count stored in an integer column: 0 .. MAX_ID (0 = no limit for capacity and oversize). */
export const count = z
  .string()
  .regex(/^\d{1,10}$/, `must be an integer from 0 to ${MAX_ID}`)
  .transform(Number)
  .refine((n) => n <= MAX_ID, `must be an integer from 0 to ${MAX_ID}`);

export const activityName = nonBlank(200);

/** Organizer HTML, cleaned on write. */
export const activityDescription = text(50000).transform(sanitizeOrganizerHtml);

export const activityLocation = text(500).transform((s) => s.trim());

/**
 * Where the session is streamed: an http(s) URL, or a bare video/stream id (letters, digits, `-`,
 * `_`, `.`) that the site's player resolves. Anything else (javascript:, data:, spaces) is refused,
 * as the site renders the value into a link or a player.
 */
export const activityStream = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine(
    (v) => (/^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v)) || /^[A-Za-z0-9._-]{1,200}$/.test(v),
    'must be an http or https URL or a stream id (letters, digits, ".", "-", "_")',
  );

export const latitude = number.refine((n) => n >= -90 && n <= 90, 'must be between -90 and 90');
export const longitude = number.refine((n) => n >= -180 && n <= 180, 'must be between -180 and 180');

/** The fields activity.create takes (B) and the columns of its CSV file, in that order. */
export const CREATE_FIELDS = {
  name: activityName,
  description: activityDescription,
  location: activityLocation,
  dateBegin: timestamp,
  dateEnd: timestamp,
  capacity: count,
} as const;
export type CreateField = keyof typeof CREATE_FIELDS;

/** The edit keys of spec §2.4, each with its schema; an empty value clears those with `clear`. */
export const EDIT_KEYS: Record<string, EditKey> = {
  placeID: editKey(count, { clear: 0 }),
  name: editKey(activityName),
  description: editKey(activityDescription, { clear: '' }),
  location: editKey(activityLocation, { clear: '' }),
  stream: editKey(activityStream, { clear: '' }),
  latitude: editKey(latitude, { clear: null }),
  longitude: editKey(longitude, { clear: null }),
  dateBegin: editKey(timestamp),
  dateEnd: editKey(timestamp),
  capacity: editKey(count, { clear: 0 }),
  oversize: editKey(count, { clear: 0 }),
  general: editKey(bit),
  highlight: editKey(bit),
  lockOperations: editKey(bit),
};
