import { z } from 'zod';
import { editKey, type EditKey } from '../../edit.ts';
import { bit, nonBlank, text, url } from '../../schemas.ts';

// The beacon, the beacon event and the beacon action (docs/api/beacons.md), declared once: the
// operations' parameters and the edit keys read these.

/** iBeacon proximity UUID (any case; stored lower case). */
export const uuid = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be a UUID such as f7826da6-4fa2-4e98-8024-bc5b71e0893e',
  ) // prettier-ignore
  .transform((v) => v.toLowerCase());

/** iBeacon major and minor: 16-bit unsigned integers. */
export const part = z
  .string()
  .regex(/^\d{1,5}$/, 'must be an integer from 0 to 65535')
  .transform(Number)
  .refine((n) => n <= 65535, 'must be an integer from 0 to 65535');

export const beaconName = text(100);

export const BEACON_TYPES = ['entrance', 'room', 'booth', 'stand', 'other'] as const;
export const RANGES = ['immediate', 'near', 'far'] as const;
export const ACTION_TYPES = ['message', 'url'] as const;

export const placeType = z.enum(BEACON_TYPES, `must be one of ${BEACON_TYPES.join(', ')}`);
export const range = z.enum(RANGES, `must be one of ${RANGES.join(', ')}`);
export const extra = text(500);
export const actionType = z.enum(ACTION_TYPES, `must be one of ${ACTION_TYPES.join(', ')}`);
export const actionTitle = nonBlank(120);
/** Plain text shown to the attendee (rendered as text by the app, never as HTML). */
export const actionMessage = text(1000);
export const actionURL = url;

/** beacon.action.edit's keys: `type` is set at creation only. */
export const ACTION_EDIT_KEYS: Readonly<Record<string, EditKey>> = {
  title: editKey(actionTitle),
  message: editKey(actionMessage, { clear: '' }),
  url: editKey(actionURL, { clear: '' }),
  active: editKey(bit),
};
