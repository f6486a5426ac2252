import { badRequest } from '../../errors.ts';

// Rules between event fields that one-key edits (spec §1.3) would otherwise leave inconsistent: whether
// the event takes place somewhere (presential) follows its venue, and a private event keeps a code.

/** The keys that name a venue: an event has one when either is set (city alone is not a place to go). */
export const VENUE_KEYS = ['address', 'placeName'] as const;

/** The fields the rules read, as stored (accessCode null when not set). */
export interface RuleFields {
  readonly address?: string | null;
  readonly placeName?: string | null;
  readonly public?: number;
  readonly visible?: number;
  readonly accessCode?: number | null;
  readonly presential?: number;
}

const hasVenue = (e: RuleFields) => VENUE_KEYS.some((k) => (e[k] ?? '').trim() !== '');

/**
 * What an edit that takes `before` to `after` also writes: `presential` 1 when the event gets its first
 * venue, 0 when its last one is cleared. It follows only those two changes, so a `presential` the
 * organizer set explicitly (an online event that lists its organizer's address, a venue still to be
 * announced) holds through later corrections of the address, and an explicit `presential` in the same
 * write wins.
 */
export function followVenue(before: RuleFields, after: RuleFields, given: readonly string[]): Partial<RuleFields> {
  if (given.includes('presential')) return {};
  const had = hasVenue(before);
  const has = hasVenue(after);
  if (had === has) return {};
  return { presential: has ? 1 : 0 };
}

/**
 * 400 when a write would leave a private event (public 0) without an access code: nobody could open
 * it. Checked on the keys that can cause it, so an event that is already in that state (a copy of a
 * private event: codes are not copied) can still be fixed one key at a time.
 */
export function checkPrivateHasCode(after: RuleFields, given: readonly string[]): void {
  const isPrivate = after.public === 0;
  const hasCode = after.accessCode !== null && after.accessCode !== undefined && after.accessCode !== 0;
  if (!isPrivate || hasCode) return;
  if (given.includes('public'))
    throw badRequest('public 0 needs an access code: set accessCode first, or nobody could open the private event');
  if (given.includes('accessCode'))
    throw badRequest('accessCode cannot be cleared while the event is private: set public 1 first');
  if (given.includes('visible') && after.visible === 1)
    throw badRequest('a private event needs an access code before it is visible: set accessCode first');
}
