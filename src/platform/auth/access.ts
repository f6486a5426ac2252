import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ApiError, notFound } from '../errors.ts';
import { COMPANY_LEVEL, LEVEL, type Context } from '../kernel/table.ts';
import type { Caller } from './caller.ts';

const ALL_LEVELS = Object.values(LEVEL).reduce((a, b) => a | b, 0);

export interface EventAccess {
  readonly eventID: number;
  readonly companyID: number;
  /** Effective level bits of the caller in the event (0: none). */
  readonly level: number;
  /** The caller's company level (0: none; only counted for system-scope tokens). */
  readonly companyLevel: number;
  /** Whether the caller has any relation to the event or its company. */
  readonly related: boolean;
}

/**
 * The caller's effective rights in an event, or undefined when the event does not exist.
 * Event-scope tokens see only their own event and have Admin downgraded to User (spec §5.3);
 * company admins and operators are event admins.
 */
export async function eventAccess(
  db: Kysely<DB>,
  caller: Caller | undefined,
  eventID: number,
): Promise<EventAccess | undefined> {
  const event = await db
    .selectFrom('event')
    .select(['eventID', 'companyID'])
    .where('eventID', '=', eventID)
    .executeTakeFirst();
  if (!event) return undefined;
  const none = { ...event, level: 0, companyLevel: 0, related: false };
  if (!caller) return none;
  if (caller.operator) return { ...event, level: ALL_LEVELS, companyLevel: COMPANY_LEVEL.ADMIN, related: true };
  if (caller.scope === 'event' && caller.targetID !== eventID) return none;

  const member = await db
    .selectFrom('eventPerson')
    .select('level')
    .where('eventID', '=', eventID)
    .where('personID', '=', caller.personID)
    .executeTakeFirst();
  let level = member?.level ?? 0;
  let companyLevel = 0;
  if (caller.scope === 'event') {
    if (level & LEVEL.ADMIN) level = (level & ~LEVEL.ADMIN) | LEVEL.USER;
  } else {
    companyLevel = await companyLevelOf(db, caller, event.companyID);
    if (companyLevel === COMPANY_LEVEL.ADMIN) level |= LEVEL.ADMIN;
  }
  return { ...event, level, companyLevel, related: member !== undefined || companyLevel > 0 };
}

export async function companyLevelOf(db: Kysely<DB>, caller: Caller, companyID: number): Promise<number> {
  if (caller.operator) return COMPANY_LEVEL.ADMIN;
  if (caller.scope !== 'system') return 0;
  const row = await db
    .selectFrom('companyPerson')
    .select('level')
    .where('companyID', '=', companyID)
    .where('personID', '=', caller.personID)
    .executeTakeFirst();
  return row?.level ?? 0;
}

/**
 * Throws 404 when the caller cannot see the event, 403 when it sees it but lacks the level. `object`
 * names what the 404 says is missing when the event was found through an object the call names
 * (`activity` for an activityID): an unrelated caller then gets the answer of an unknown id.
 */
export async function requireEvent(
  ctx: Context,
  eventID: number,
  levels: number,
  object = 'event',
): Promise<EventAccess> {
  const access = await eventAccess(ctx.db, ctx.caller, eventID);
  if (!access || !access.related) throw notFound(object);
  if ((access.level & levels) === 0) {
    throw new ApiError(
      403,
      ctx.caller?.scope === 'event' ? 'an event-scope token cannot do this' : 'permission level too low',
    );
  }
  return access;
}

/**
 * Throws 404 when the caller has no relation to the company, 403 when it is related but its role or
 * scope is too low. Related (table.ts `Auth`): a person of the company, a person registered in one of
 * its events, or an event-scope token of one of its events.
 */
export async function requireCompany(ctx: Context, companyID: number, role: 'admin' | 'member'): Promise<number> {
  const caller = requireCaller(ctx);
  // 0 for event-scope tokens: they never carry company rights (spec §5.3).
  const level = await companyLevelOf(ctx.db, caller, companyID);
  const exists =
    level > 0 &&
    (await ctx.db.selectFrom('company').select('companyID').where('companyID', '=', companyID).executeTakeFirst());
  if (!exists) {
    // Was 403 for every event-scope token whatever the company, and 404 for an attendee's system
    // token on its own event's company: unrelated callers must get 404, related ones 403. The answer
    // depends only on the caller's own registrations, so it reveals nothing about other companies.
    if (level > 0 || !(await relatedToCompany(ctx.db, caller, companyID))) throw notFound('company');
    throw new ApiError(
      403,
      caller.scope === 'event' ? 'a system-scope token is required' : 'a person of the company is required',
    );
  }
  if (role === 'admin' && level !== COMPANY_LEVEL.ADMIN) throw new ApiError(403, 'company admin level required');
  return level;
}

/** Whether the caller (not a person of the company) is registered in one of its events, or holds a token of one. */
async function relatedToCompany(db: Kysely<DB>, caller: Caller, companyID: number): Promise<boolean> {
  let events = db.selectFrom('event').select('event.eventID').where('event.companyID', '=', companyID);
  events =
    caller.scope === 'event'
      ? events.where('event.eventID', '=', caller.targetID)
      : events.where('event.eventID', 'in', (e) =>
          e.selectFrom('eventPerson').select('eventPerson.eventID').where('eventPerson.personID', '=', caller.personID),
        );
  return (await events.executeTakeFirst()) !== undefined;
}

/** For operations whose auth depends on the form used (e.g. onboarding token or tokenID). */
export function requireCaller(ctx: Context): Caller {
  if (!ctx.caller) throw new ApiError(401, 'tokenID cannot be empty');
  return ctx.caller;
}
