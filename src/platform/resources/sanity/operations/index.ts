import { z } from 'zod';
import {
  defineOperation,
  editParams,
  pageOf,
  pageParams,
  q,
  qOpt,
  LEVEL,
  type AnyOperation,
} from '../../../kernel/table.ts';
import { editKey, keyList, parseEdit } from '../../../edit.ts';
import { bit, id, text } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { sanityWire } from '../../../../shared/wire/messaging.ts';
import { sanityByID, sanityRows, setClean } from '../repository.ts';
import { SANITY_JOB } from '../job.ts';

// The address checks of an event's attendees (spec §4.9 event.sanity.*, issue 15 outcome 4;
// docs/messaging.md "Address checks"): which addresses will likely never be read, and why.

const sanityFind = defineOperation({
  name: 'event.sanity.find',
  summary:
    "Lists the checked attendee addresses of an event: all, the clean ones (safe-emails) or the others (spam-emails), with each one's reason.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    selection: q(z.enum(['all', 'safe-emails', 'spam-emails'], 'must be all, safe-emails or spam-emails'), 'all, safe-emails (clean) or spam-emails (not clean)'), // prettier-ignore
    query: qOpt(text(320), 'addresses containing this'),
    sort: qOpt(z.enum(['email', 'clean', 'reason', 'date'], 'must be email, clean, reason or date'), 'email (default), clean, reason or date'), // prettier-ignore
    order: qOpt(z.enum(['ASC', 'DESC', 'asc', 'desc'], 'must be ASC or DESC'), 'ASC (default) or DESC'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  answer: sanityWire,
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    return sanityRows(ctx.db, {
      eventID: p.eventID,
      selection: p.selection,
      query: p.query,
      sort: p.sort ?? 'email',
      order: (p.order ?? 'ASC').toLowerCase() as 'asc' | 'desc',
      limit: page.limit,
      offset: page.offset,
    });
  },
});

const KEYS = { clean: editKey(bit) };

const sanityOperate = defineOperation({
  name: 'event.sanity.operate',
  summary: `Sets whether a checked address is clean (the organizer's word, kept by later checks). Keys: ${keyList(KEYS)}.`,
  methods: ['POST'],
  params: { eventSanityID: q(id, 'the checked address'), ...editParams(1, '0 or 1', keyList(KEYS)) },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['eventSanityID'] },
  answer: sanityWire,
  writes: true,
  async handler(ctx, p) {
    const edit = parseEdit(KEYS, p.key, p.value);
    await setClean(ctx.db, p.eventSanityID, edit.value as number);
    const row = await sanityByID(ctx.db, p.eventSanityID);
    if (!row) throw notFound('eventSanity');
    return [row];
  },
});

const sanityRefresh = defineOperation({
  name: 'event.sanity.refresh',
  summary:
    'Checks every attendee address of the event again (form, role mailbox, disposable domain, MX record) in jobs; event.sanity.find shows the results as they come.',
  methods: ['GET'],
  params: { eventID: q(id, 'the event') },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    await ctx.jobs.add(ctx.db, SANITY_JOB, { eventID: p.eventID, after: 0 });
    return [{ eventID: p.eventID, state: 'checking' }];
  },
});

export const sanityOperations: readonly AnyOperation[] = [sanityFind, sanityOperate, sanityRefresh];
