import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt, LEVEL } from '../../../../kernel/table.ts';
import { id, orientation, selection, text } from '../../../../schemas.ts';
import {
  ACTIVITY_PERSON_ORDERS as ORDERS,
  activityPeoplePage,
  type ActivityPersonOrder as Order,
} from '../../../enrollment/records.ts';

const SELECTIONS = ['all', 'approved', 'denied', 'paid', 'present'] as const;

/** Sort columns: the columns of the answer that can order it. */

/**
 * Spec §4.6. The attendees of an activity, for its event's admins and staff. Selections (combine with
 * |, all must hold): approved (1), denied (0: registered, not approved — the waiting list), paid,
 * present. Default order: the approved by enrollment, then the waiting list in queue order.
 */
export default defineOperation({
  name: 'activity.person.find',
  summary: 'Lists the attendees of an activity (event admins and staff).',
  methods: ['GET'],
  params: {
    activityID: q(id, 'the activity'),
    selection: q(
      selection(SELECTIONS, false),
      `${SELECTIONS.join(', ')}; combine with |. denied: registered and not approved (approved 0, spec §3)`,
    ),
    order: qOpt(
      z.enum(Object.keys(ORDERS) as [Order], `must be one of ${Object.keys(ORDERS).join(', ')}`),
      'sort column (default: approved first, then position, then enrollmentID)',
    ),
    orderOrientation: qOpt(orientation, 'ASC or DESC'),
    query: qOpt(text(200), 'text contained in the name or e-mail (any case)'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN | LEVEL.STAFF, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    const chosen = p.selection.values;
    const filter = {
      approval: (['approved', 'denied'] as const).filter((v) => chosen.has(v)),
      paid: chosen.has('paid'),
      present: chosen.has('present'),
      query: p.query,
    };
    const dir = p.orderOrientation === 'DESC' ? 'desc' : 'asc';
    return activityPeoplePage(ctx.db, p.activityID, filter, p.order, dir, pageOf(p));
  },
});
