import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { bit, text, timestamp } from '../../schemas.ts';
import { editKey, type EditKey } from '../../edit.ts';
import { sanitizeOrganizerHtml } from '../html.ts';
import type { EventRecordRow } from '../event/repository.ts';
import { fieldQuery, fieldRecord } from './fields.ts';
import { recordOf } from '../records.ts';
import { formWire } from '../../../shared/wire/form.ts';
import { guestCount } from '../guest/repository.ts';

/** Most guests one attendee may bring (guestsForMember). */
export const MAX_GUESTS = 100;

export const MAX_CAPACITY = 10_000_000;

/** The event's enrollment settings (Podium extension keys; event.edit has the spec's event keys). */
export const SETTING_KEYS: Record<string, EditKey> = {
  enrollmentOpen: editKey(bit),
  inviteRequired: editKey(bit),
  waitingList: editKey(bit),
  capacity: editKey(
    z
      .string()
      .regex(/^\d{1,8}$/, `must be an integer from 0 to ${MAX_CAPACITY}`)
      .transform(Number)
      .refine((n) => n <= MAX_CAPACITY, `must be an integer from 0 to ${MAX_CAPACITY}`),
    { clear: 0 },
  ),
  enrollmentBegin: editKey(timestamp, { clear: 0 }),
  enrollmentEnd: editKey(timestamp, { clear: 0 }),
  consent: editKey(text(5000).transform(sanitizeOrganizerHtml), { clear: '' }),
  // 1: the form records applications that an admin approves (docs/api/applicants.md).
  approvalRequired: editKey(bit),
  // Guests each attendee may bring (spec §2.2 guestsForMember; 0: none; docs/api/guests.md).
  guestsForMember: editKey(
    z
      .string()
      .regex(/^\d{1,3}$/, `must be an integer from 0 to ${MAX_GUESTS}`)
      .transform(Number)
      .refine((n) => n <= MAX_GUESTS, `must be an integer from 0 to ${MAX_GUESTS}`),
    { clear: 0 },
  ),
};

/** The event's enrollment settings (columns of `event`) that decide whether the form takes registrations. */
export interface EnrollmentSettings {
  readonly enrollmentOpen: number;
  readonly enrollmentBegin: number;
  readonly enrollmentEnd: number;
  readonly capacity: number;
  readonly waitingList: number;
  readonly isTemplate: number;
}

/** Why a form takes no registrations. */
export type ClosedReason = 'closed' | 'not-yet' | 'ended' | 'full';

/** The error line of each reason (403, or 409 for a full event without waiting list). */
export const CLOSED_MESSAGES: Readonly<Record<ClosedReason, string>> = {
  closed: 'registration is closed',
  'not-yet': 'registration has not opened yet',
  ended: 'registration has ended',
  full: 'registration is full',
};

/**
 * Whether the form is open at `now`, capacity aside: the organizer's switch, then the enrollment window
 * (enrollmentBegin..enrollmentEnd, both inclusive, 0 = unbounded). A template never takes registrations.
 */
export function windowReason(e: EnrollmentSettings, now: number): Exclude<ClosedReason, 'full'> | undefined {
  if (e.enrollmentOpen !== 1 || e.isTemplate === 1) return 'closed';
  if (e.enrollmentBegin > 0 && now < e.enrollmentBegin) return 'not-yet';
  if (e.enrollmentEnd > 0 && now > e.enrollmentEnd) return 'ended';
  return undefined;
}

/** The form's state for the widget: open or why not, and the places left (undefined: no capacity). */
export function formState(e: EnrollmentSettings, now: number, approved: number) {
  const remaining = e.capacity > 0 ? Math.max(0, e.capacity - approved) : undefined;
  const reason = windowReason(e, now) ?? (remaining === 0 && e.waitingList !== 1 ? 'full' : undefined);
  return { acceptsRegistrations: reason ? 0 : 1, reason: reason ?? '', remaining };
}

/**
 * What form.get answers (the widget renders it): the settings, the computed state, the custom fields
 * in order with their options, and the attendee-type tags a registrant may pick.
 */
export async function formRecord(db: Kysely<DB>, event: EventRecordRow, now: number) {
  // One after the other: inside form.edit this is a transaction, which runs one query at a time.
  const fields = await fieldQuery(db, event.eventID).execute();
  const tags = await db
    .selectFrom('tag')
    .select(['tagID', 'name', 'color'])
    .where('eventID', '=', event.eventID)
    .where('kind', '=', 'attendee')
    .orderBy('name')
    .orderBy('tagID')
    .execute();
  // Guests take places too (docs/api/guests.md).
  const taken = Number(event.peopleCount ?? 0) + (event.capacity > 0 ? await guestCount(db, event.eventID) : 0);
  const state = formState(event, now, taken);
  return formRecordOf({
    eventID: event.eventID,
    name: event.name,
    enrollmentOpen: event.enrollmentOpen,
    acceptsRegistrations: state.acceptsRegistrations,
    reason: state.reason,
    inviteRequired: event.inviteRequired,
    capacity: event.capacity,
    remaining: state.remaining ?? '',
    waitingList: event.waitingList,
    approvalRequired: event.approvalRequired,
    guestsForMember: event.guestsForMember,
    enrollmentBegin: event.enrollmentBegin,
    enrollmentEnd: event.enrollmentEnd,
    consent: event.consent,
    timezone: event.timezone,
    language: event.language,
    fields: fields.map(fieldRecord),
    tags,
  });
}

const formRecordOf = recordOf(formWire);
