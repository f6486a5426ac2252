import { b, bOpt, defineOperation, q } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { checkCompanyTagName, companyTagByID, EVENT_TAG_FIELD as F, EVENT_TAG_KIND } from '../../../tag/company.ts';
import { insertRow } from '../../../rows.ts';

/**
 * Podium extension: adds an event tag to the company (kind `event`, no eventID). Event tags classify the
 * company's events (event.tag.bind) for company.event.find `tags`. Names are unique within the company,
 * whatever the case (409).
 */
export default defineOperation({
  name: 'company.tag.create',
  summary: 'Adds an event tag (kind event) to the company, to classify its events.',
  methods: ['POST'],
  params: {
    companyID: q(id, 'the company'),
    name: b(F.name, 'tag name (unique in the company, whatever the case)'),
    color: bOpt(F.color, 'colour as #rrggbb'),
  },
  auth: { kind: 'company', role: 'admin' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    await checkCompanyTagName(ctx.db, p.companyID, p.name);
    const tagID = await insertRow(ctx.db, 'tag', 'tagID', {
      companyID: p.companyID,
      eventID: null,
      name: p.name,
      color: p.color ?? '',
      kind: EVENT_TAG_KIND,
    });
    return [(await companyTagByID(ctx.db, p.companyID, tagID))!];
  },
});
