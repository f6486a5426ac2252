import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

// The change log (issue 11, migration 0005): every committed write — through the API, the CLI or the
// seed — records what it changed in the same transaction, so a change is logged if and only if its
// write committed. Readers (the answer cache, the bus, later push channels and webhooks) resume from the
// last id they saw. Ids grow with each insert; on PostgreSQL two transactions may commit in the other
// order than their ids, so readers that resume by id look a little behind their last id (changesSince).

/** What one write changed. */
export interface Change {
  /** The operation that wrote (`activity.edit`), or the writer outside the API (`seed`, `cli`). */
  readonly operation: string;
  /** What changed: the operation's module (`activity`, `event.person`, …). */
  readonly kind: string;
  readonly companyID?: number | null;
  readonly eventID?: number | null;
  readonly objectID?: number | null;
  /** The call's id parameters (webhook payloads); left out by writers outside the API. */
  readonly ids?: Readonly<Record<string, number>>;
  /** The call asked to skip webhooks (bypassWebhook=1). */
  readonly quiet?: boolean;
}

/** A logged change: its id (monotonic) and its time (Unix ms). */
export interface ChangeRow {
  readonly changeID: number;
  readonly at: number;
  readonly operation: string;
  readonly kind: string;
  readonly companyID: number | null;
  readonly eventID: number | null;
  readonly objectID: number | null;
}

const COLUMNS = ['changeID', 'at', 'operation', 'kind', 'companyID', 'eventID', 'objectID'] as const;

/**
 * Modules whose writes change the activity they name: a speaker, sponsor or tag bound to a session or
 * taken off it is a change of the session (its program entry, its page). Their change's object is the
 * activity, not the speaker, sponsor or tag (push.subscribe tells of it on activity/edit).
 */
export const ACTIVITY_PARTS: ReadonlySet<string> = new Set(['activity.speaker', 'activity.sponsor', 'activity.tag']);

/**
 * Writes no public read shows — chat messages, error reports, webhooks, budgets, the mail and SMS logs,
 * device subscriptions, beacon sightings — by module or by operation. Their changes are logged and
 * delivered (webhooks, the bus) like any other, but leave kept public answers and pages alone: without
 * this, every chat message at a busy event emptied that event's cached program and hotsite.
 * tests/api/cache.test.ts checks that each name is a write of the table and that no public read is.
 */
export const PRIVATE_WRITES: ReadonlySet<string> = new Set([
  'chat',
  'error',
  'webhook',
  'webhook.delivery',
  'budget',
  'download',
  'event.email',
  'event.blacklist',
  'event.sender',
  'event.sanity',
  'event.sendSMS',
  'beacon.log',
  'push.bind',
  'push.dismiss',
  'billing',
  'crmfeed',
  'company.person.sync',
  'daemon',
  'person.requestLink',
  'person.signInLink',
  'person.signOut',
]);

/** Whether a change may make a public answer stale (see PRIVATE_WRITES). */
export const touchesPublic = (change: { readonly kind: string; readonly operation: string }): boolean =>
  !PRIVATE_WRITES.has(change.kind) && !PRIVATE_WRITES.has(change.operation);

/** The module of an operation name: `activity.edit` → `activity`, `event.person.bind` → `event.person`. */
export const kindOf = (operation: string): string => operation.slice(0, Math.max(0, operation.lastIndexOf('.')));

/** Records a change inside the write's transaction `trx`; answers it as logged. */
export async function recordChange(trx: Kysely<DB>, change: Change, at = Date.now()): Promise<ChangeRow> {
  const eventID = change.eventID ?? null;
  const row = await trx
    .insertInto('change')
    .values({
      at,
      operation: change.operation,
      kind: change.kind,
      // An anonymous write (a registration through the public form) has no caller's company: the event's
      // is the change's, or no webhook, push stream or cache of that company would hear of it.
      companyID:
        change.companyID ??
        (eventID === null ? null : trx.selectFrom('event').select('companyID').where('eventID', '=', eventID)),
      eventID,
      objectID: change.objectID ?? null,
      ids: change.ids ? JSON.stringify(change.ids) : '',
      quiet: change.quiet ? 1 : 0,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { ...row, changeID: Number(row.changeID), at: Number(row.at) };
}

/**
 * Changes with an id above `afterID`, oldest first, at most `limit`. Callers that resume after a gap
 * pass an id somewhat below the last they saw and skip the ids they already had: a transaction that
 * took an id earlier may commit later.
 */
export async function changesSince(db: Kysely<DB>, afterID: number, limit = 1000): Promise<ChangeRow[]> {
  const rows = await db
    .selectFrom('change')
    .select(COLUMNS)
    .where('changeID', '>', afterID)
    .orderBy('changeID')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    changeID: Number(r.changeID),
    at: Number(r.at),
    objectID: r.objectID === null ? null : Number(r.objectID),
  }));
}

/** The newest change's id (0 for an empty log): where a new reader starts. */
export async function lastChangeID(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('change')
    .select((e) => e.fn.max('changeID').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/**
 * Forgets changes older than `beforeMs` (the kept window); answers how many went. The newest change
 * stays, however old: a reader that comes back with an older id finds it missed pruned changes (below
 * the oldest kept), which an empty log could not tell it (a quiet platform empties its log otherwise).
 */
export async function pruneChanges(db: Kysely<DB>, beforeMs: number): Promise<number> {
  const newest = await lastChangeID(db);
  const result = await db
    .deleteFrom('change')
    .where('at', '<', beforeMs)
    .where('changeID', '<', newest)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The oldest kept change's id (undefined for an empty log): a reader that last saw an older one missed pruned changes. */
export async function oldestChangeID(db: Kysely<DB>): Promise<number | undefined> {
  const row = await db
    .selectFrom('change')
    .select((e) => e.fn.min('changeID').as('first'))
    .executeTakeFirst();
  return row?.first === null || row?.first === undefined ? undefined : Number(row.first);
}
