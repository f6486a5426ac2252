import { z } from 'zod';
import { editKey, type EditKey } from '../../edit.ts';
import { bit, text } from '../../schemas.ts';
import { organizerHtml } from '../hotsite/content.ts';

// The case study (spec §2.6 Case study), declared once: case.edit's keys.

export const COUNT_MAX = 1_000_000_000;
const count = z
  .string()
  .regex(/^\d{1,10}$/, `must be an integer from 0 to ${COUNT_MAX}`)
  .transform(Number)
  .refine((n) => n <= COUNT_MAX, `must be an integer from 0 to ${COUNT_MAX}`);

/** A key at a video or slide host: letters, digits, `_`, `-` and `.`, no URL. */
const hostKey = z.string().regex(/^[\w.-]{1,200}$/, 'must be letters, digits, _, - or . (at most 200), not a URL');

/** case.edit's keys: the spec's (§2.6), and `active` (Podium extension: publishes the case study). */
export const CASE_EDIT_KEYS: Readonly<Record<string, EditKey>> = {
  attendees: editKey(count, { clear: 0 }),
  downloads: editKey(count, { clear: 0 }),
  impressions: editKey(count, { clear: 0 }),
  headline: editKey(text(300), { clear: '' }),
  challenges: editKey(organizerHtml, { clear: '' }),
  solution: editKey(organizerHtml, { clear: '' }),
  results: editKey(organizerHtml, { clear: '' }),
  videoKey: editKey(hostKey, { clear: '' }),
  slideKey: editKey(hostKey, { clear: '' }),
  active: editKey(bit),
};
