import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ApiError, notFound } from '../errors.ts';
import { COMPANY_LEVEL, LEVEL, type Context } from '../table.ts';
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

/** Throws 404 when the caller cannot see the event, 403 when it sees it but lacks the level. */
export async function requireEvent(ctx: Context, eventID: number, levels: number): Promise<EventAccess> {
  const access = await eventAccess(ctx.db, ctx.caller, eventID);
  if (!access || !access.related) throw notFound('event');
  if ((access.level & levels) === 0) {
    throw new ApiError(
      403,
      ctx.caller?.scope === 'event' ? 'an event-scope token cannot do this' : 'permission level too low',
    );
  }
  return access;
}

/** Throws 404 when the caller has no relation to the company, 403 when the role is too low. */
export async function requireCompany(ctx: Context, companyID: number, role: 'admin' | 'member'): Promise<number> {
  // Scope is checked before existence so an event-scope token learns nothing about other companies.
  if (ctx.caller?.scope !== 'system') throw new ApiError(403, 'a system-scope token is required');
  const level = await companyLevelOf(ctx.db, ctx.caller, companyID);
  const exists =
    level > 0 &&
    (await ctx.db.selectFrom('company').select('companyID').where('companyID', '=', companyID).executeTakeFirst());
  if (!exists) throw notFound('company');
  if (role === 'admin' && level !== COMPANY_LEVEL.ADMIN) throw new ApiError(403, 'company admin level required');
  return level;
}

/** For operations whose auth depends on the form used (e.g. onboarding token or tokenID). */
export function requireCaller(ctx: Context): Caller {
  if (!ctx.caller) throw new ApiError(401, 'tokenID cannot be empty');
  return ctx.caller;
}
