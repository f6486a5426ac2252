import { defineOperation, qOpt, LEVEL } from '../../../kernel/table.ts';
import { hostname, id, slug, text } from '../../../schemas.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { eventAccess } from '../../../auth/access.ts';
import { grantKind, grantSchema } from '../../../auth/grant.ts';
import { eventByCname, eventByID, eventByNickname, personInEventView } from '../repository.ts';
import { eventRecord, gateRecord, type Viewer } from '../service.ts';

/**
 * Spec §4.2. The public form (no token) shows a visible event without its admin-only fields; a
 * private event (public=0) shows only what its access-code gate needs. `approved`, `level`, … are
 * those of personID (admins only; a person who is neither an attendee nor in the event's company is
 * 404), else of the token's person, else -1/0. Podium extensions: the
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
    grant: qOpt(
      grantSchema,
      'Podium extension: the grant of event.checkAccessCode, to read a private event, or of event.preview',
    ),
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
    const kind =
      p.grant === undefined ? undefined : await grantKind(ctx.db, p.grant, row.eventID, ctx.now, row.accessCode);
    // A hidden event exists only for the people related to it, and for its admins' preview (event.preview).
    if (!access.related && (row.isTemplate === 1 || (row.visible !== 1 && kind !== 'preview'))) throw notFound('event');
    if (p.personID !== undefined && !admin) {
      if (!access.related) throw notFound('event');
      throw new ApiError(403, 'only event admins may read another person');
    }
    if (!access.related && row.public !== 1 && kind === undefined) return [gateRecord(row)];

    let viewer: Viewer | undefined;
    if (p.personID !== undefined) {
      // Another person (admins only): shown only when they are this event's attendee or in its
      // company; anyone else is unknown here, whatever they are elsewhere.
      viewer = await personInEventView(ctx.db, row.eventID, row.companyID, p.personID);
      if (!viewer) throw notFound('person');
    } else if (ctx.caller) {
      const own = await personInEventView(ctx.db, row.eventID, row.companyID, ctx.caller.personID);
      viewer = {
        personID: ctx.caller.personID,
        role: own?.role ?? '',
        company: own?.company ?? '',
        // An event-scope token has Admin downgraded to User (spec §5.3): its own record must show the
        // level the token acts with (access.level), not the stored one, or clients offer admin tools
        // every call then refuses.
        level: ctx.caller.scope === 'event' ? access.level : (own?.level ?? 0),
        approved: own?.approved ?? -1,
        systemLevel: ctx.caller.operator ? 1 : 0,
        companyLevel: access.companyLevel,
      };
    }
    return [eventRecord(row, ctx.now, admin ? 'full' : 'public', viewer)];
  },
});
