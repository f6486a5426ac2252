import { b, bOpt, defineOperation, q, LEVEL } from '../../table.ts';
import { id } from '../../schemas.ts';
import { checkTagName, tagByID, TAG_FIELD as F, TAG_KIND_DEFAULT, TAG_KINDS } from '../../domain/tag/repository.ts';

/**
 * Podium extension (spec §2.5 Activity tag names tags, their root operations are not shown): adds a
 * tag to the event, stored with the event's company. `kind` activity (default: tracks and topics of
 * activities) or attendee (attendee types registration may offer through tagIDs). Names are unique
 * within an event and kind, whatever the case.
 */
export default defineOperation({
  name: 'tag.create',
  summary: 'Adds a tag (activity track or attendee type) to an event.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: b(F.name, 'tag name'),
    color: bOpt(F.color, 'colour as #rrggbb'),
    kind: bOpt(F.kind, `${TAG_KINDS.join(' or ')} (default ${TAG_KIND_DEFAULT})`),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const kind = p.kind ?? TAG_KIND_DEFAULT;
    await checkTagName(ctx.db, p.eventID, kind, p.name);
    const { tagID } = await ctx.db
      .insertInto('tag')
      .values({ companyID: ctx.access!.companyID, eventID: p.eventID, name: p.name, color: p.color ?? '', kind })
      .returning('tagID')
      .executeTakeFirstOrThrow();
    return [(await tagByID(ctx.db, tagID))!];
  },
});
