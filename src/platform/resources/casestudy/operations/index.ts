import { defineOperation, editParams, pageOf, pageParams, q, LEVEL, type AnyOperation } from '../../../kernel/table.ts';
import { siteReader } from '../../../kernel/site-read.ts';
import { id } from '../../../schemas.ts';
import { caseWire } from '../../../../shared/wire/case.ts';
import { notFound } from '../../../errors.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { CASE_EDIT_KEYS } from '../fields.ts';
import { activeCases, caseOf, setCase } from '../repository.ts';

// Case studies (spec §4.7, §2.6; issue 17; docs/api/cases.md): one per event, written by its admins
// with case.edit (the first edit makes it), published with key `active`; case.find and case.get are
// public and show published ones only (an admin of the event reads its own unpublished one).

const caseEdit = defineOperation({
  name: 'case.edit',
  summary: `Edits one field of the event's case study (admins), making it at the first edit; active=1 publishes it. Keys: ${keyList(CASE_EDIT_KEYS)}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    ...editParams(50000, 'new value; empty clears every key but active (numbers to 0)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  answer: caseWire,
  async handler(ctx, p) {
    const { column, value } = parseEdit(CASE_EDIT_KEYS, p.key, p.value);
    await setCase(ctx.db, p.eventID, column, value, ctx.now);
    return [(await caseOf(ctx.db, p.eventID))!];
  },
});

const caseFind = defineOperation({
  name: 'case.find',
  summary: 'Lists every published (active) case study, newest edit first (public).',
  methods: ['GET'],
  params: { ...pageParams },
  auth: { kind: 'public' },
  cachePublic: true,
  writes: false,
  answer: caseWire,
  handler: (ctx, p) => activeCases(ctx.db, pageOf(p)),
});

const caseGet = defineOperation({
  name: 'case.get',
  summary: "Reads an event's case study (public when published; the event's admins read it unpublished too).",
  methods: ['GET'],
  params: { eventID: q(id, 'the event') },
  auth: { kind: 'public' },
  cachePublic: true,
  writes: false,
  answer: caseWire,
  async handler(ctx, p) {
    const row = await caseOf(ctx.db, p.eventID);
    if (!row) throw notFound('case study');
    if (row.active === 1) return [row];
    // Unpublished: only the event's admins, and everyone else is told what a missing one tells.
    const admin = ctx.caller
      ? await siteReader(ctx, p.eventID, undefined).then(
          (r) => r.admin,
          () => false,
        )
      : false;
    if (!admin) throw notFound('case study');
    return [row];
  },
});

/** Case studies (issue 17, docs/api/cases.md). */
export const caseOperations: readonly AnyOperation[] = [caseEdit, caseFind, caseGet];
