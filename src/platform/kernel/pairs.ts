import {
  defineOperation,
  pageOf,
  pageParams,
  q,
  ANY_LEVEL,
  LEVEL,
  type AnyOperation,
  type Context,
  type OwnerParam,
  type Page,
  type Params,
  type Result,
} from './table.ts';
import { id } from '../schemas.ts';
import { pairWire } from '../../shared/wire/relation.ts';
import {
  bindPair,
  dismissPair,
  requireInEvent,
  type EventObject,
  type PairTable,
} from '../resources/relation/common.ts';

// The bind and dismiss operations of a relation between two objects of one event (spec §4.5 bottom
// half: activity.speaker.bind, …), made from one description. Both are idempotent (binding a bound
// pair or dismissing an unbound one changes nothing and answers the pair), both take GET or POST with
// the ids in the query, and the dispatcher's event rule checks the first id (`owner`); the second must
// be an object of the same event, or the answer is a 404 naming it, as for an id that does not exist.

interface Side {
  readonly param: string;
  readonly description: string;
}

export interface PairSpec {
  /** `activity.speaker`: the operations are `<module>.bind` and `<module>.dismiss`. */
  readonly module: string;
  readonly table: PairTable;
  /** The id the event rule checks (and finds the event through). */
  readonly owner: Side & { readonly param: OwnerParam };
  /** The id linked to it; dismiss may describe it differently. */
  readonly other: Side & { readonly table?: EventObject; readonly dismissDescription?: string };
  readonly summaries: { readonly bind: string; readonly dismiss: string };
  /** A Podium extension (not in the spec). */
  readonly extension?: boolean;
  /**
   * The check of the second id, when `requireInEvent` of its table is not the whole rule (an activity
   * tag must be of kind activity; an event tag is the company's).
   */
  readonly check?: (ctx: Context, otherID: number, action: 'bind' | 'dismiss') => Promise<void>;
}

export function pairOperations(spec: PairSpec): AnyOperation[] {
  const auth =
    spec.owner.param === 'eventID'
      ? ({ kind: 'event', levels: LEVEL.ADMIN } as const)
      : ({ kind: 'event', levels: LEVEL.ADMIN, via: [spec.owner.param] } as const);
  const answer = pairWire(spec.owner.param, spec.other.param);
  const make = (action: 'bind' | 'dismiss') => {
    const params: Params = {
      [spec.owner.param]: q(id, spec.owner.description),
      [spec.other.param]: q(id, (action === 'dismiss' && spec.other.dismissDescription) || spec.other.description),
    };
    return defineOperation<Params>({
      name: `${spec.module}.${action}`,
      summary: spec.summaries[action],
      answer,
      methods: ['GET', 'POST'],
      params,
      auth,
      ...(spec.extension ? { extension: true } : {}),
      writes: true,
      async handler(ctx, p: Record<string, any>) {
        const owner = p[spec.owner.param] as number;
        const other = p[spec.other.param] as number;
        if (spec.check) await spec.check(ctx, other, action);
        else await requireInEvent(ctx.db, ctx.access!.eventID!, spec.other.table!, other);
        const pair = { [spec.owner.param]: owner, [spec.other.param]: other };
        await (action === 'bind' ? bindPair : dismissPair)(ctx.db, spec.table, pair as never);
        return [pair];
      },
    });
  };
  return [make('bind'), make('dismiss')];
}

/**
 * A member's paged read of what one activity is linked to (spec §4.5: its chains, its lists, the
 * activities chained to it): anyone with a level in the activity's event; `viewer` is the caller, for
 * records that show the caller's own enrollment.
 */
export function activityLinksOperation(o: {
  readonly name: string;
  readonly summary: string;
  readonly read: (db: Context['db'], activityID: number, page: Page, viewer?: { personID: number }) => Promise<Result>;
}): AnyOperation {
  return defineOperation({
    name: o.name,
    summary: o.summary,
    methods: ['GET'],
    params: { activityID: q(id, 'the activity'), ...pageParams },
    auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
    writes: false,
    handler: (ctx, p) =>
      o.read(ctx.db, p.activityID, pageOf(p), ctx.caller ? { personID: ctx.caller.personID } : undefined),
  });
}
