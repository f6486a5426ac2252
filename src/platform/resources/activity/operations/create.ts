import { bOpt, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { readEventImport } from '../../imports.ts';
import { activityRecords } from '../record.ts';
import { CREATE_FIELDS, type CreateField } from '../fields.ts';
import { activityRowsInOrder, insertActivities, newActivity, type ActivityInput } from '../repository.ts';
import { eventColumns } from '../../event/repository.ts';

const COLUMNS = Object.keys(CREATE_FIELDS) as CreateField[];

/** One CSV row through the same schemas as the B parameters; `row` is its line in the file (header = 1). */
function parseRow(r: Record<string, string>, row: number): ActivityInput {
  const out: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    const raw = r[column] ?? '';
    if (raw === '') {
      if (column === 'name') throw badRequest(`path row ${row}: name cannot be empty`);
      continue;
    }
    if (raw.includes('\0')) throw badRequest(`path row ${row}: ${column} cannot contain a NUL character`);
    const parsed = CREATE_FIELDS[column].safeParse(column === 'description' ? raw : raw.trim());
    if (!parsed.success)
      throw badRequest(`path row ${row}: ${column} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    out[column] = parsed.data;
  }
  return out as unknown as ActivityInput;
}

/**
 * Spec §4.5: creates one activity (B name, …) or many from a CSV file (B path) inside IMPORT_DIR
 * with the header columns name, description, location, dateBegin, dateEnd, capacity. A file is
 * all or nothing: any bad row refuses the whole file (400 naming the row) and nothing is created.
 */
export default defineOperation({
  name: 'activity.create',
  summary: 'Creates an activity, or many from a CSV file under the import folder (B path).',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: bOpt(CREATE_FIELDS.name, 'activity name (at most 200 characters)'),
    description: bOpt(CREATE_FIELDS.description, 'description (organizer HTML, sanitized)'),
    location: bOpt(CREATE_FIELDS.location, 'room or place (the site groups the schedule by it)'),
    dateBegin: bOpt(CREATE_FIELDS.dateBegin, 'begins (Unix seconds; default: the event begin)'),
    dateEnd: bOpt(CREATE_FIELDS.dateEnd, 'ends (Unix seconds, not before dateBegin; default: dateBegin)'),
    capacity: bOpt(CREATE_FIELDS.capacity, 'maximum approved people (0 = no limit, the default)'),
    path: bOpt(text(500), `CSV file inside IMPORT_DIR with the columns ${COLUMNS.join(', ')}`),
  },
  variants: [['name'], ['path']],
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  async handler(ctx, p) {
    const event = (await eventColumns(ctx.db, p.eventID, ['eventID', 'dateBegin']))!;
    const creatorID = ctx.caller!.personID;
    let rows;
    if (p.path !== undefined) {
      const given = COLUMNS.filter((c) => c !== 'name' && p[c] !== undefined);
      if (p.name !== undefined || given.length > 0)
        throw badRequest(`path cannot be combined with ${p.name !== undefined ? 'name' : given[0]}`);
      const file = await readEventImport(ctx.db, ctx.config.IMPORT_DIR, p.eventID, p.path);
      const unknown =
        file.length > 0 ? Object.keys(file[0]).find((k) => !(COLUMNS as string[]).includes(k)) : undefined;
      if (unknown !== undefined)
        throw badRequest(`path has an unknown column "${unknown.slice(0, 40)}" (columns: ${COLUMNS.join(', ')})`);
      if (file.length === 0) throw badRequest('path has no activity rows');
      rows = file.map((r, i) => newActivity(parseRow(r, i + 2), event, creatorID, ctx.now, `path row ${i + 2}: `));
    } else {
      rows = [newActivity(p as ActivityInput, event, creatorID, ctx.now)];
    }
    const ids = await insertActivities(ctx.db, rows);
    return activityRecords(ctx.db, await activityRowsInOrder(ctx.db, ids), { personID: creatorID });
  },
});
