import { defineOperation, LEVEL, pageOf, pageParams, q } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { findFailures } from '../../access-code-failures.ts';

/**
 * Podium extension: the wrong access codes tried at an event's gate, for its admins — newest first,
 * the last 100: `time` (Unix seconds), `address` (the caller's network only: /24 of IPv4, /48 of IPv6)
 * and `challenged` (1 when the event's budget of wrong codes was spent and the caller had solved a
 * challenge). The codes themselves are never kept.
 */
export default defineOperation({
  name: 'event.accessCode.find',
  summary: "Lists the latest wrong access codes tried at the event's gate (time, masked address), for its admins.",
  methods: ['GET'],
  params: { eventID: q(id, 'the event'), ...pageParams },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: false,
  async handler(ctx, p) {
    const { rows, total } = await findFailures(ctx.db, p.eventID, pageOf(p));
    return { rows: rows.map((r) => ({ eventID: p.eventID, ...r })), total };
  },
});
