import { z } from 'zod';
import { defineOperation, b, bOpt, q, qOpt, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { ApiError, badRequest, notFound } from '../../../errors.ts';
import { requireCaller } from '../../../auth/access.ts';
import { daemonWire } from '../../../../shared/wire/daemon.ts';
import { daemonRecord, insertDaemon } from '../repository.ts';
import { DAEMON_JOB, TARGET_NAMES, TARGETS, callOf, parseExtra, parseItems, targetOf } from '../targets.ts';

const RESOURCE_TYPES = [...new Set(TARGETS.flatMap((t) => Object.keys(t.resources)))];

/**
 * Spec §4.8: a bulk operation of the event, queued as a job (src/platform/daemons/run.ts) that runs the
 * target's single operation for each item, as the caller, per item (docs/api/daemons.md). Every item is
 * checked now with the single operation's own parameter schemas: a bad one refuses the whole call, and
 * nothing is queued.
 */
export default defineOperation({
  name: 'daemon.bulk',
  summary:
    "Queues a bulk operation of the event (a job): the target's single operation run for each item of resources, as the caller, each item applied or refused on its own; daemon.find shows its progress and refusals.",
  methods: ['POST'],
  params: {
    companyID: qOpt(id, "the event's company (optional; another company's id is refused as an unknown event)"),
    eventID: q(id, 'the event'),
    target: q(
      z.enum(TARGET_NAMES as [string, ...string[]], `must be one of ${TARGET_NAMES.join(', ')}`),
      'what each item does: the single operation it runs (docs/api/daemons.md "Targets")',
    ),
    targetID: qOpt(
      id,
      'the one object every item is applied to (the activity people are bound to, …), for targets that take one',
    ),
    resourceID: qOpt(id, 'reserved: no target of today takes it (refused when given)'),
    resourceType: q(
      z.enum(RESOURCE_TYPES as [string, ...string[]], `must be one of ${RESOURCE_TYPES.join(', ')}`),
      'what each item of resources is (person, activity, tag): the forms a target takes',
    ),
    resources: b(
      z.string(),
      'the items: a JSON array (of ids, or of objects for event.person.bind), or ids separated by commas; at most DAEMON_MAX_ITEMS (10,000)',
    ),
    extra: bOpt(
      z.string().max(10_000, 'must be at most 10000 characters'),
      "a JSON object of the target's other parameters (bypassWebhook; key and value of event.person.operate)",
    ),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: daemonWire,
  writes: true,
  async handler(ctx, p) {
    const caller = requireCaller(ctx);
    const access = ctx.access!;
    if (p.companyID !== undefined && p.companyID !== access.companyID) throw notFound('event');
    const target = targetOf(p.target)!;
    const form = target.resources[p.resourceType];
    if (!form)
      throw badRequest(`resourceType must be ${Object.keys(target.resources).join(' or ')} for target ${target.name}`);
    if (form.fixed && p.targetID === undefined) throw badRequest(`targetID cannot be empty for target ${target.name} (the ${form.fixed.slice(0, -2)})`); // prettier-ignore
    if (!form.fixed && p.targetID !== undefined) throw badRequest(`targetID is not used by target ${target.name}`);
    if (p.resourceID !== undefined) throw badRequest(`resourceID is not used by target ${target.name}`);
    const items = parseItems(p.resources, form, ctx.config.DAEMON_MAX_ITEMS);
    const extra = parseExtra(p.extra, target);
    const fixed = { eventID: access.eventID!, targetID: p.targetID ?? 0 };
    // Each item as the single operation would see it: its schemas, now (its rule and checks run with it).
    for (const [i, item] of items.entries()) {
      const call = callOf(target, form, fixed, extra, item);
      try {
        ctx.checkCall?.(target.name, call.query, call.body);
      } catch (err) {
        if (err instanceof ApiError) throw new ApiError(err.status, `resources item ${i}: ${err.message}`);
        throw err;
      }
    }
    const row = await insertDaemon(ctx.db, {
      companyID: access.companyID,
      eventID: access.eventID!,
      personID: caller.personID,
      scope: caller.scope,
      scopeTargetID: caller.targetID,
      operation: 'bulk',
      target: target.name,
      targetID: fixed.targetID,
      resourceID: 0,
      resourceType: p.resourceType,
      resources: JSON.stringify(items),
      extra: JSON.stringify(extra),
      state: 'queued',
      total: items.length,
      date: ctx.now,
    });
    await ctx.jobs.add(ctx.db, DAEMON_JOB, { daemonID: row.daemonID });
    // What the change names: the new daemon.
    (p as Record<string, unknown>).daemonID = row.daemonID;
    return [daemonRecord(row, [])];
  },
});
