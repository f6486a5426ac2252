import { b, defineOperation, q, qOpt } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { badRequest, notFound } from '../../../../errors.ts';
import { eventByID } from '../../../event/repository.ts';
import { eventRecord } from '../../../event/service.ts';
import { CREATE_FIELDS } from '../../../event/fields.ts';
import { copyEventTags, createEvent, eventRow } from '../../../event/repository.ts';

/** Columns never copied from a sibling or template: identity, address and state of the source. */
const NOT_COPIED = new Set([
  'eventID', 'name', 'nickname', 'cname', 'cnameAsked', 'cnameState', 'cnameDNS', 'dateCreated', 'isTemplate', 'templateID', 'siblingID', 'accessCode',
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
    isTemplate: qOpt(CREATE_FIELDS.isTemplate, '1 makes a template'),
    name: b(CREATE_FIELDS.name, 'event name'),
    nickname: b(CREATE_FIELDS.nickname, 'URL path segment, unique in the company'),
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
      // A private event's copy has no access code yet (codes are not copied): it starts hidden, and
      // event.edit refuses visible 1 until it has one (rules.ts).
      if (copied.public === 0) copied.visible = 0;
    }
    const owner = { companyID: p.companyID, creatorID: ctx.caller!.personID };
    const eventID = await createEvent(ctx.db, owner, p, ctx.now, { copied });
    if (sourceID !== undefined) await copyEventTags(ctx.db, sourceID, eventID);
    return [eventRecord((await eventByID(ctx.db, eventID))!, ctx.now, 'full')];
  },
});
