import { z } from 'zod';
import { defineOperation, q, qOpt, pageParams, pageOf, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { daemonWire } from '../../../../shared/wire/daemon.ts';
import { daemonRecord, errorsOf, findDaemons } from '../repository.ts';
import { TARGET_NAMES } from '../targets.ts';

const TARGETS_OR_ALL = ['all', ...TARGET_NAMES] as [string, ...string[]];
const STATES = ['pending', 'finished', 'queued', 'running', 'done', 'failed'] as const;

/** Spec §4.8: the event's daemons, pending and finished, with progress and per-item refusals. */
export default defineOperation({
  name: 'daemon.find',
  summary:
    "Lists the event's bulk daemons, newest first: target, state (queued, running, done, failed), progress (done of total, applied, failed) and each refused item's NNN message line.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    operation: q(
      z.enum(['bulk'], 'must be bulk'),
      'the daemon operation: bulk (daemon.bulk; reports are in download.find)',
    ),
    target: q(
      z.enum(TARGETS_OR_ALL, `must be all or one of ${TARGET_NAMES.join(', ')}`),
      'one target of daemon.bulk, or all',
    ),
    state: qOpt(
      z.enum(STATES, `must be one of ${STATES.join(', ')}`),
      'pending (queued or running), finished (done or failed), or one state',
    ),
    daemonID: qOpt(id, 'only this daemon'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: daemonWire,
  writes: false,
  async handler(ctx, p) {
    const found = await findDaemons(
      ctx.db,
      {
        eventID: p.eventID,
        operation: p.operation,
        target: p.target === 'all' ? undefined : p.target,
        daemonID: p.daemonID,
        state: p.state,
      },
      pageOf(p),
    );
    const rows = Array.isArray(found) ? found : found.rows;
    const errors = await errorsOf(
      ctx.db,
      rows.map((r) => r.daemonID),
    );
    const records = rows.map((r) => daemonRecord(r, errors.get(r.daemonID) ?? []));
    return Array.isArray(found) ? records : { rows: records, total: found.total };
  },
});
