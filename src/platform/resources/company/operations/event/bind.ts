import { b, defineOperation, q, qOpt } from '../../../../kernel/table.ts';
import { bit, id, slug, text } from '../../../../schemas.ts';
import { badRequest, notFound } from '../../../../errors.ts';
import { eventByID } from '../../../event/repository.ts';
import { eventRecord } from '../../../event/service.ts';
import { checkEventAddress, copyEventTags, eventRow } from '../../../event/repository.ts';
import { insertRow } from '../../../rows.ts';

/** Columns never copied from a sibling or template: identity, address and state of the source. */
const NOT_COPIED = new Set([
  'eventID', 'name', 'nickname', 'cname', 'dateCreated', 'isTemplate', 'templateID', 'siblingID', 'accessCode',
  'archived', 'creatorID', 'ownerID',
]); // prettier-ignore

/**
 * Spec §4.2. Creates an event in the company: empty, copied from an earlier event of the company
 * (siblingID), or from one of its templates (templateID); isTemplate=1 makes a template. Needs a
 * system-scope token of a company admin. New events are hidden (visible=0) until edited.
 */
export default defineOperation({
  name: 'company.event.bind',
  summary: 'Creates an event in a company (optionally from a sibling event or a template).',
  methods: ['POST'],
  params: {
    companyID: q(id, 'the company'),
    siblingID: qOpt(id, 'copy data from this earlier event of the company'),
    templateID: qOpt(id, 'create from this template of the company'),
    isTemplate: qOpt(bit, '1 makes a template'),
    name: b(text(200), 'event name'),
    nickname: b(slug, 'URL path segment, unique in the company'),
  },
  auth: { kind: 'company', role: 'admin' },
  writes: true,
  async handler(ctx, p) {
    if (p.siblingID !== undefined && p.templateID !== undefined)
      throw badRequest('give siblingID or templateID, not both');
    const sourceID = p.siblingID ?? p.templateID;
    let copied: Record<string, unknown> = {};
    if (sourceID !== undefined) {
      const source = await eventRow(ctx.db, sourceID);
      const which = p.siblingID !== undefined ? 'sibling event' : 'template';
      if (!source || source.companyID !== p.companyID) throw notFound(which);
      if (p.templateID !== undefined && source.isTemplate !== 1) throw badRequest('templateID must name a template');
      copied = Object.fromEntries(Object.entries(source).filter(([k]) => !NOT_COPIED.has(k)));
    }
    // eventID 0: no event yet, so every event of the company counts.
    await checkEventAddress(ctx.db, { eventID: 0, companyID: p.companyID }, { nickname: p.nickname });

    const eventID = await insertRow(ctx.db, 'event', 'eventID', {
      ...copied,
      companyID: p.companyID,
      name: p.name.trim(),
      nickname: p.nickname,
      dateCreated: ctx.now,
      creatorID: ctx.caller!.personID,
      ownerID: ctx.caller!.personID,
      isTemplate: p.isTemplate ?? 0,
      templateID: p.templateID ?? 0,
      siblingID: p.siblingID ?? 0,
      visible: sourceID !== undefined ? (copied.visible as number) : 0,
    });
    if (sourceID !== undefined) await copyEventTags(ctx.db, sourceID, eventID);
    return [eventRecord((await eventByID(ctx.db, eventID))!, ctx.now, 'full')];
  },
});
