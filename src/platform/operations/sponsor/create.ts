import { b, bOpt, defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { sponsorByID, sponsorRecord, SPONSOR_FIELD as F } from '../../domain/sponsor/repository.ts';

/**
 * Podium extension (the spec lists the Sponsor fields, §2.5, but not its root operations or creation
 * payload): adds a sponsor to the event. `bio` is organizer HTML, sanitized; `tier` names the tier the
 * site shows (e.g. Gold) and `tierRank` orders tiers (1 first, 0 no tier, shown last).
 */
export default defineOperation({
  name: 'sponsor.create',
  summary: 'Adds a sponsor to an event.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: b(F.name, 'the name the site shows'),
    companyName: bOpt(F.companyName, 'legal name of the sponsoring company'),
    telephone: bOpt(F.telephone, 'contact telephone (event admins only)'),
    email: bOpt(F.email, 'contact e-mail (event admins only)'),
    website: bOpt(F.website, 'website URL'),
    bio: bOpt(F.bio, 'about the sponsor (HTML, sanitized)'),
    logo: bOpt(F.logo, 'logo URL (http or https)'),
    category: bOpt(F.category, 'free grouping, e.g. Media partner'),
    tier: bOpt(F.tier, 'tier shown on the site, e.g. Gold'),
    tierRank: bOpt(F.tierRank, 'tier order: 1 first; 0 (default) no tier, shown last'),
    position: bOpt(F.position, 'order inside the tier, 0 first (default 0)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { sponsorID } = await ctx.db
      .insertInto('sponsor')
      .values({
        eventID: p.eventID,
        name: p.name,
        companyName: p.companyName ?? '',
        telephone: p.telephone ?? '',
        email: p.email ?? '',
        website: p.website ?? '',
        bio: p.bio ?? '',
        logo: p.logo ?? '',
        category: p.category ?? '',
        tier: p.tier ?? '',
        tierRank: p.tierRank ?? 0,
        position: p.position ?? 0,
      })
      .returning('sponsorID')
      .executeTakeFirstOrThrow();
    return [sponsorRecord((await sponsorByID(ctx.db, sponsorID))!, true)];
  },
});
