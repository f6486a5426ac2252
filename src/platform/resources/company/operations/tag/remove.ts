import { defineOperation, q } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { deleteRow } from '../../../rows.ts';
import { notFound } from '../../../../errors.ts';
import { companyTagByID } from '../../../tag/company.ts';

/** Podium extension: removes an event tag of the company; the events that carried it lose it. Answers the removed record. */
export default defineOperation({
  name: 'company.tag.remove',
  summary: 'Removes an event tag of the company (and unbinds it from every event).',
  methods: ['GET', 'POST'],
  params: { companyID: q(id, 'the company'), tagID: q(id, 'an event tag of the company') },
  auth: { kind: 'company', role: 'admin' },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = await companyTagByID(ctx.db, p.companyID, p.tagID);
    if (!row) throw notFound('tag');
    await deleteRow(ctx.db, 'tag', 'tagID', p.tagID);
    return [row];
  },
});
