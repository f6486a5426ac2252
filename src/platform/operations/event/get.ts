import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { defineOperation, qOpt, LEVEL } from '../../table.ts';
import { hostname, id, slug, text } from '../../schemas.ts';
import { ApiError, notFound } from '../../errors.ts';
import { eventAccess } from '../../auth/access.ts';
import { grantSchema, verifyGrant } from '../../auth/grant.ts';
import { eventByCname, eventByID, eventByNickname, registration } from '../../domain/event/repository.ts';
import { eventRecord, gateRecord, type Viewer } from '../../domain/event/service.ts';

/** A person's platform and company levels, as another person's event record shows them. */
async function levelsOf(db: Kysely<DB>, companyID: number, personID: number) {
  const row = await db
    .selectFrom('person')
    .leftJoin('companyPerson', (j) =>
      j.onRef('companyPerson.personID', '=', 'person.personID').on('companyPerson.companyID', '=', companyID),
    )
    .select(['person.operator', 'companyPerson.level'])
    .where('person.personID', '=', personID)
    .executeTakeFirst();
  return { systemLevel: row?.operator ?? 0, companyLevel: row?.level ?? 0 };
}

/**
 * Spec §4.2. The public form (no token) shows a visible event without its admin-only fields; a
 * private event (public=0) shows only what its access-code gate needs. `approved`, `level`, … are
 * those of personID (admins only), else of the token's person, else -1/0. Podium extensions: the
 * event by namespace + nickname, or by cname (custom domain).
 */
export default defineOperation({
  name: 'event.get',
  summary: 'Reads one event (by eventID, namespace + nickname, or cname).',
  methods: ['GET'],
  params: {
    eventID: qOpt(id, 'the event'),
    namespace: qOpt(text(64), 'Podium extension: company namespace, with nickname'),
    nickname: qOpt(slug, 'Podium extension: event nickname, with namespace'),
    cname: qOpt(hostname, 'Podium extension: the custom domain of the event'),
    personID: qOpt(id, 'show the registration of this person (event admins only)'),
    grant: qOpt(grantSchema, 'Podium extension: the grant of event.checkAccessCode, to read a private event'),
  },
  variants: [['eventID'], ['namespace', 'nickname'], ['cname']],
  auth: { kind: 'public' },
  cors: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    const row =
      p.eventID !== undefined
        ? await eventByID(ctx.db, p.eventID)
        : p.cname !== undefined
          ? await eventByCname(ctx.db, p.cname)
          : await eventByNickname(ctx.db, p.namespace!, p.nickname!);
    if (!row) throw notFound('event');
    const access = (await eventAccess(ctx.db, ctx.caller, row.eventID))!;
    const admin = (access.level & LEVEL.ADMIN) !== 0;
    if (!access.related && (row.visible !== 1 || row.isTemplate === 1)) throw notFound('event');
    if (p.personID !== undefined && !admin) {
      if (!access.related) throw notFound('event');
      throw new ApiError(403, 'only event admins may read another person');
    }
    const unlocked = p.grant !== undefined && (await verifyGrant(ctx.db, p.grant, row.eventID, ctx.now));
    if (!access.related && row.public !== 1 && !unlocked) return [gateRecord(row)];

    const personID = p.personID ?? ctx.caller?.personID;
    let viewer: Viewer | undefined;
    if (personID !== undefined) {
      const r = await registration(ctx.db, row.eventID, personID);
      if (!r) throw notFound('person');
      viewer = {
        personID: r.personID,
        role: r.role,
        company: r.company,
        // An event-scope token has Admin downgraded to User (spec §5.3): its own record must show the
        // level the token acts with (access.level), not the stored one, or clients offer admin tools
        // every call then refuses.
        level: p.personID === undefined && ctx.caller?.scope === 'event' ? access.level : (r.level ?? 0),
        approved: r.approved ?? -1,
        // Of the person shown: the caller's own, or (personID, admins only) that person's.
        ...(p.personID === undefined
          ? { systemLevel: ctx.caller?.operator ? 1 : 0, companyLevel: access.companyLevel }
          : await levelsOf(ctx.db, row.companyID, personID)),
      };
    }
    return [eventRecord(row, ctx.now, admin ? 'full' : 'public', viewer)];
  },
});
