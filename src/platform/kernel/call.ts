import { ApiError } from '../errors.ts';
import { LEVEL } from '../auth/levels.ts';
import type { Context } from './table.ts';
import { isAttendee } from '../resources/enrollment/rules.ts';
import type { AttendeeViewer } from '../resources/attendee/record.ts';

// What an operation learns about its caller from the call itself (the level the dispatcher found,
// the token's person and scope). Domain code takes the answers as plain values, never the call.

/** Whether the caller is an admin of the event the dispatcher authorized (company admins and operators are). */
export const isEventAdmin = (ctx: Context): boolean => ((ctx.access?.level ?? 0) & LEVEL.ADMIN) !== 0;

/** Admins and staff: who may read other people's enrollments. */
export const isAdminOrStaff = (ctx: Context): boolean => ((ctx.access?.level ?? 0) & (LEVEL.ADMIN | LEVEL.STAFF)) !== 0;

/** The admin forms: 403 for members below admin (event-scope tokens of admins are downgraded to User). */
export function requireAdmin(ctx: Context, what: string): void {
  if (!isEventAdmin(ctx)) throw new ApiError(403, `only event admins may ${what}`);
}

/** The event the dispatcher authorized (every attendance operation has an `event` rule). */
export const eventOfCall = (ctx: Context): number => ctx.access!.eventID!;

/** The same for the attendee operations. */
export const isAdmin = (ctx: Context) => ((ctx.access?.level ?? 0) & LEVEL.ADMIN) !== 0;

/** The token's person, who must be an attendee of the event to change their own enrollment. */
export async function selfAttendee(ctx: Context): Promise<number> {
  const personID = ctx.caller!.personID;
  if (!(await isAttendee(ctx.db, eventOfCall(ctx), personID)))
    throw new ApiError(403, 'only attendees of the event can join or leave its activities');
  return personID;
}

/** How the caller of an attendee operation sees records: its own in full, others limited for event scope. */
export function viewerOf(ctx: Context): AttendeeViewer {
  const caller = ctx.caller!;
  return {
    personID: caller.personID,
    limited: caller.scope === 'event',
    ownLevel: caller.scope === 'event' ? ctx.access?.level : undefined,
  };
}
