import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { badRequest } from '../../errors.ts';
import { REFUSED } from '../../../shared/refused.ts';
import { formatRefusal } from '../../../shared/answer-check.ts';

// The custom fields of the registration form (spec §4.4 feedbackContent): their definition is data in
// the `feedback` table (name = label, options = JSON array text), their answers in `feedbackAnswer`.

/** Field types a form may have; the widget renders one input kind per type. */
export const FIELD_TYPES = [
  'text', // one line, at most 1000 characters
  'textarea', // long text, at most 10000 characters
  'select', // exactly one of the options
  'multiselect', // any number of the options
  'checkbox', // 0 or 1; a required checkbox must be 1 (e.g. "I accept the rules")
  'date', // YYYY-MM-DD
  'number', // decimal number
  'email',
  'telephone',
  'url', // http or https
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const SELECT_TYPES: ReadonlySet<string> = new Set(['select', 'multiselect']);

export const fieldType = z.enum(FIELD_TYPES, `must be one of: ${FIELD_TYPES.join(', ')}`);

/** The "API Field key" (spec §4.4): the name of the field in feedbackContent given as an object. */
export const apiKey = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
    'must start with a letter and hold only letters, digits and underscores (at most 64)',
  );

export const MAX_OPTIONS = 200;
export const MAX_OPTION_LENGTH = 200;

/**
 * Options of a select or multiselect field: a JSON array of strings, or one option per line. Blank
 * entries are dropped; repeated ones refused (an answer names its option by its text).
 */
export const options = z
  .string()
  .max(50000, 'must be at most 50000 characters')
  .transform((raw, ctx) => {
    let list: unknown[];
    if (raw.trimStart().startsWith('[')) {
      try {
        list = JSON.parse(raw) as unknown[];
      } catch {
        list = [null];
      }
      if (!Array.isArray(list) || !list.every((v) => typeof v === 'string' || typeof v === 'number')) {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array of strings or one option per line' });
        return z.NEVER;
      }
    } else list = raw.split(/\r?\n/);
    const out = list.map((v) => String(v).trim()).filter((v) => v !== '');
    const problem =
      out.length > MAX_OPTIONS
        ? `must have at most ${MAX_OPTIONS} options`
        : out.find((v) => v.length > MAX_OPTION_LENGTH)
          ? `must have options of at most ${MAX_OPTION_LENGTH} characters`
          : out.find((v, i) => out.indexOf(v) !== i);
    if (problem !== undefined) {
      const message = problem.startsWith('must') ? problem : `has the option "${problem.slice(0, 60)}" twice`;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return out;
  });

/** A field as the registration path needs it. */
export interface FieldDef {
  readonly feedbackID: number;
  readonly name: string;
  readonly type: string;
  readonly options: readonly string[];
  readonly apiKey: string | null;
  readonly required: number;
}

/** The stored JSON text of options, read defensively (a bad value reads as no options). */
export function parseStoredOptions(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** The fields of an event's form, in form order. */
export function fieldQuery(db: Kysely<DB>, eventID: number) {
  return db
    .selectFrom('feedback')
    .select(['feedbackID', 'eventID', 'name', 'description', 'type', 'options', 'apiKey', 'required', 'position'])
    .where('eventID', '=', eventID)
    .orderBy('position')
    .orderBy('feedbackID');
}

type StoredField = Awaited<ReturnType<ReturnType<typeof fieldQuery>['execute']>>[number];

/** A field as organizers and the widget see it: options as a nested list of { value }. */
export function fieldRecord(f: StoredField) {
  return { ...f, apiKey: f.apiKey ?? '', options: parseStoredOptions(f.options).map((value) => ({ value })) };
}

const label = (f: FieldDef) => `feedbackContent field ${f.feedbackID} (${f.name.slice(0, 80)})`;

/** A multiselect answer: a list, a JSON array text, one option, or options separated by commas. */
function selectedList(f: FieldDef, raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.map((v) => (typeof v === 'string' ? v.trim() : String(v)));
  const s = String(raw).trim();
  if (s.startsWith('[')) {
    try {
      const v = JSON.parse(s) as unknown;
      if (Array.isArray(v)) return v.map((x) => String(x).trim());
    } catch {
      // not JSON: read as a comma list below
    }
  }
  if (f.options.includes(s)) return [s];
  return s.split(',').map((v) => v.trim());
}

/**
 * One answer, checked against its field's type: the text to store, or undefined when it is not
 * answered (missing, null, blank, empty list). Errors name the field, as the widget shows them next to it.
 */
export function answerValue(f: FieldDef, raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'object' && !Array.isArray(raw)) throw badRequest(`${label(f)} must be a value, not an object`);
  if (Array.isArray(raw) && f.type !== 'multiselect') {
    if (raw.length === 0) return undefined;
    throw badRequest(`${label(f)} must be a single value`);
  }
  if (f.type === 'multiselect') {
    const list = [...new Set(selectedList(f, raw).filter((v) => v !== ''))];
    if (list.length === 0) return undefined;
    const bad = list.find((v) => !f.options.includes(v));
    if (bad !== undefined) throw badRequest(`${label(f)} has "${bad.slice(0, 60)}", which is not one of its options`);
    return JSON.stringify(list);
  }
  if (f.type === 'checkbox') {
    if (raw === true || raw === 1 || raw === '1' || raw === 'true') return '1';
    if (raw === false || raw === 0 || raw === '0' || raw === 'false') return '0';
    if (raw === '') return undefined;
    throw badRequest(`${label(f)} must be 0 or 1`);
  }
  const v = (typeof raw === 'string' ? raw : String(raw)).trim();
  if (v === '') return undefined;
  switch (f.type) {
    case 'select':
      if (!f.options.includes(v)) throw badRequest(`${label(f)} must be one of: ${f.options.join(', ').slice(0, 300)}`);
      return v;
    case 'date':
    case 'number':
    case 'email':
    case 'telephone': {
      const wrong = formatRefusal(f.type, v);
      if (wrong) throw badRequest(`${label(f)} ${REFUSED[wrong]}`);
      return f.type === 'email' ? v.toLowerCase() : v;
    }
    case 'url':
      if (v.length > 2000 || !/^https?:\/\/\S+$/i.test(v) || !URL.canParse(v))
        throw badRequest(`${label(f)} must be an http or https URL`);
      return v;
    case 'textarea':
      if (v.length > 10000) throw badRequest(`${label(f)} must be at most 10000 characters`);
      return v;
    default: // text, and any type stored before the list grew
      if (v.length > 1000) throw badRequest(`${label(f)} must be at most 1000 characters`);
      return v;
  }
}

const FORMS = 'feedbackContent must be a JSON list of {"feedbackID", "value"} or an object keyed by API Field key';

/**
 * Reads feedbackContent (spec §4.4) in either form — a list of { feedbackID, value }, or an object
 * mapping API Field keys to answers — and checks every answer and every required field. Returns the
 * answers to store, by feedbackID.
 */
export function readFeedbackContent(raw: string, fields: readonly FieldDef[]): Map<number, string> {
  let content: unknown;
  try {
    content = JSON.parse(raw);
  } catch {
    throw badRequest(FORMS);
  }
  const given = new Map<FieldDef, unknown>();
  if (Array.isArray(content)) {
    const byID = new Map(fields.map((f) => [f.feedbackID, f]));
    for (const item of content) {
      if (!item || typeof item !== 'object' || Array.isArray(item) || !('feedbackID' in item)) throw badRequest(FORMS);
      const { feedbackID, value } = item as { feedbackID: unknown; value?: unknown };
      const field = byID.get(Number(feedbackID));
      if (!field || !/^[1-9]\d{0,9}$/.test(String(feedbackID)))
        throw badRequest(`feedbackContent field ${String(feedbackID).slice(0, 20)} is not a field of this form`);
      if (given.has(field)) throw badRequest(`${label(field)} is given twice`);
      given.set(field, value);
    }
  } else if (content && typeof content === 'object') {
    const byKey = new Map(fields.filter((f) => f.apiKey).map((f) => [f.apiKey!, f]));
    for (const [key, value] of Object.entries(content)) {
      const field = byKey.get(key);
      if (!field) throw badRequest(`feedbackContent key ${key.slice(0, 64)} is not an API Field key of this form`);
      given.set(field, value);
    }
  } else throw badRequest(FORMS);

  const answers = new Map<number, string>();
  for (const f of fields) {
    const value = given.has(f) ? answerValue(f, given.get(f)) : undefined;
    if (f.required) {
      if (value === undefined) throw badRequest(`${label(f)} ${REFUSED.empty}`);
      if (f.type === 'checkbox' && value !== '1') throw badRequest(`${label(f)} ${REFUSED.unchecked}`);
    }
    if (value !== undefined) answers.set(f.feedbackID, value);
  }
  return answers;
}
