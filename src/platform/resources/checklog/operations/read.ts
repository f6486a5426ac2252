import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { checkStatsWire, checkedInWire, checklogWire } from '../../../../shared/wire/checklog.ts';
import { notFound } from '../../../errors.ts';
import { activityInEvent, doorCounts, insideNow, logOf } from '../repository.ts';
import { SCANNERS } from './scan.ts';

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const stringify = <T extends Record<string, unknown>>(row: T) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, str(v)]));

export const stats = defineOperation({
  name: 'checklog.stats',
  summary:
    "Live counts per door: people inside now (every device), people ever in, entries, refused scans and repeats (a second scan of someone inside, not a refusal); the entrance's row first, with the approved attendees and how many of them are inside.",
  methods: ['GET'],
  params: { eventID: q(id, 'the event') },
  auth: { kind: 'event', levels: SCANNERS },
  writes: false,
  answer: checkStatsWire,
  async handler(ctx, p) {
    const c = await doorCounts(ctx.db, p.eventID);
    const byDoor = new Map(c.doors.map((d) => [d.activityID, d]));
    const doors = [0, ...[...byDoor.keys(), ...c.refused.keys(), ...c.repeats.keys()].filter((a) => a !== 0)];
    return [...new Set(doors)].map((activityID) => {
      const d = byDoor.get(activityID);
      return stringify({
        eventID: p.eventID,
        activityID,
        name: activityID === 0 ? '' : (c.names.get(activityID) ?? ''),
        inside: Number(d?.inside ?? 0),
        checkedIn: Number(d?.checkedIn ?? 0),
        entries: Number(d?.entries ?? 0),
        refused: c.refused.get(activityID) ?? 0,
        repeats: c.repeats.get(activityID) ?? 0,
        approved: activityID === 0 ? c.approved : '',
        attendeesInside: activityID === 0 ? c.attendeesInside : '',
      });
    });
  },
});

export const checkedIn = defineOperation({
  name: 'checklog.checkedIn',
  summary: "The people inside a door now (the event's entrance, or a session's), longest inside first.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    activityID: qOpt(id, "the session's door; left out: the event's entrance"),
    ...pageParams,
  },
  auth: { kind: 'event', levels: SCANNERS },
  writes: false,
  answer: checkedInWire,
  async handler(ctx, p) {
    if (p.activityID !== undefined && (await activityInEvent(ctx.db, p.eventID, p.activityID)) === undefined)
      throw notFound('activity');
    const page = await insideNow(ctx.db, p.eventID, p.activityID ?? 0, pageOf(p));
    return Array.isArray(page) ? page.map(stringify) : { rows: page.rows.map(stringify), total: page.total };
  },
});

export const find = defineOperation({
  name: 'checklog.find',
  summary:
    'Lists the check-in log, newest first (format=excel exports it): every scan, or those of attendees whose label was printed.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    selection: qOpt(z.enum(['all', 'printed'], 'must be all or printed'), '`all` (default) or `printed`'),
    query: qOpt(text(100), "part of the attendee's name or e-mail"),
    activityID: qOpt(id, "only this session's door (Podium extension)"),
    ...pageParams,
  },
  auth: { kind: 'event', levels: SCANNERS },
  writes: false,
  answer: checklogWire,
  async handler(ctx, p) {
    const filter = { printed: p.selection === 'printed', query: p.query, activityID: p.activityID };
    const page = await logOf(ctx.db, p.eventID, filter, pageOf(p));
    const shape = ({ scanKey: _, ...r }: Record<string, unknown>) => stringify(r);
    return Array.isArray(page) ? page.map(shape) : { rows: page.rows.map(shape), total: page.total };
  },
});
