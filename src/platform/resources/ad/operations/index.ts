import { z } from 'zod';
import { defineOperation, qOpt, q, type AnyOperation } from '../../../kernel/table.ts';
import { crudOperations } from '../../../kernel/crud.ts';
import { grantParam, siteReader } from '../../../kernel/site-read.ts';
import { id } from '../../../schemas.ts';
import { adFindWire } from '../../../../shared/wire/ad.ts';
import { AD, adsToShow, checkSponsor } from '../repository.ts';

// Ads (spec §4.7, §2.6; issue 17; docs/api/ads.md). ad.create and ad.edit are the spec's; ad.remove and
// ad.find are Podium extensions. An ad belongs to a sponsor of its event (sponsor.create first).

const written = crudOperations(AD, {
  module: 'ad',
  spec: ['create', 'edit'],
  summaries: {
    create: 'Adds an ad of a sponsor of the event (admins); image, link, weight, main and splash may follow.',
    remove: 'Removes an ad (admins).',
  },
  methods: { create: ['GET'] },
  inQuery: ['sponsorID', 'image', 'link', 'weight', 'main', 'splash'],
  edit: { max: 2000, description: 'new value; empty clears image and link' },
  rules: {
    async create(ctx, eventID, values) {
      await checkSponsor(ctx.db, eventID, values.sponsorID as number);
    },
    async edit(ctx, row, column, value) {
      if (column === 'sponsorID') await checkSponsor(ctx.db, row.eventID as number, value as number);
    },
  },
});

/** Hundredths of a percent as `62.50`. */
const percent = (hundredths: number) => `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;

const adFind = defineOperation({
  name: 'ad.find',
  summary:
    "What the event's own pages show (public for readable events): its ads of a place, heaviest first, each with its share of the showings by weight; weight 0 is never shown.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    placement: qOpt(
      z.enum(['main', 'splash'], 'must be main or splash'),
      '`main` (the information section) or `splash` (full screen); left out: both',
    ),
    grant: grantParam,
  },
  auth: { kind: 'public' },
  cachePublic: true,
  extension: true,
  writes: false,
  answer: adFindWire,
  async handler(ctx, p) {
    await siteReader(ctx, p.eventID, p.grant);
    const rows = await adsToShow(ctx.db, p.eventID, p.placement);
    const sum = rows.reduce((n, r) => n + Number(r.weight), 0);
    return rows.map((r) => ({ ...r, share: percent(Math.round((Number(r.weight) * 10000) / sum)) }));
  },
});

/** Ads (issue 17, docs/api/ads.md). */
export const adOperations: readonly AnyOperation[] = [...written, adFind];
