import { ApiError, badRequest } from '../../errors.ts';
import { MAX_ID } from '../../schemas.ts';

// The targets of daemon.bulk (docs/api/daemons.md "Targets"): what a bulk daemon does, each item by calling
// the single operation the target names, through the operation table, as the person who asked
// (src/platform/daemons/run.ts) — its validation, its rule, its checks, its change and webhooks: a bulk can
// do nothing its asker could not do with the same calls one by one. Every target is per-item: each item
// is its own transaction, applied or refused on its own (its refusal listed), never all-or-nothing.

/** How the items of one resourceType become the single operation's parameters. */
export interface ResourceForm {
  /** The parameter each item fills (an id), or undefined when items are objects of body fields. */
  readonly item?: string;
  /** The parameter targetID fills (required when set), e.g. the activity every person is bound to. */
  readonly fixed?: string;
  /** Items are objects: their keys are these body parameters (the operation validates the values). */
  readonly fields?: readonly string[];
}

export interface Target {
  /** The target's name, the single operation each item runs. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly summary: string;
  /** Item forms by resourceType. */
  readonly resources: Readonly<Record<string, ResourceForm>>;
  /** The single operation takes the event as Q eventID (the others find it through the object they name). */
  readonly eventID?: true;
  /** Keys `extra` may hold, and where each goes in the single call. */
  readonly extra?: Readonly<Record<string, 'query' | 'body'>>;
}

const byPerson = (fixed: string): ResourceForm => ({ item: 'personID', fixed });

/** The targets table: one row per target (docs/api/daemons.md keeps the same table). */
export const TARGETS: readonly Target[] = [
  {
    name: 'activity.person.bind',
    method: 'GET',
    summary: 'binds many people to one activity (resourceType person), or one person to many activities (activity)',
    resources: { person: byPerson('activityID'), activity: { item: 'activityID', fixed: 'personID' } },
    extra: { bypassWebhook: 'query' },
  },
  {
    name: 'activity.person.dismiss',
    method: 'GET',
    summary: 'takes many people off one activity (person), or one person off many activities (activity)',
    resources: { person: byPerson('activityID'), activity: { item: 'activityID', fixed: 'personID' } },
    extra: { bypassWebhook: 'query' },
  },
  {
    name: 'activity.tag.bind',
    method: 'GET',
    summary: 'applies one tag to many activities (activity), or many tags to one activity (tag)',
    resources: { activity: { item: 'activityID', fixed: 'tagID' }, tag: { item: 'tagID', fixed: 'activityID' } },
  },
  {
    name: 'activity.tag.dismiss',
    method: 'GET',
    summary: 'takes one tag off many activities (activity), or many tags off one activity (tag)',
    resources: { activity: { item: 'activityID', fixed: 'tagID' }, tag: { item: 'tagID', fixed: 'activityID' } },
  },
  {
    name: 'list.person.bind',
    method: 'GET',
    summary: 'adds many people to one list (the selection an e-mail or activity can be limited to)',
    resources: { person: byPerson('listID') },
  },
  {
    name: 'list.person.dismiss',
    method: 'GET',
    summary: 'takes many people off one list',
    resources: { person: byPerson('listID') },
  },
  {
    name: 'event.person.bind',
    eventID: true,
    method: 'POST',
    summary: 'creates many attendees of the event: each item an object of event.person.bind body fields',
    resources: {
      person: {
        fields: ['name', 'username', 'email', 'role', 'company', 'telephone', 'origin', 'createSpeaker', 'level'],
      },
    },
  },
  {
    name: 'event.person.dismiss',
    eventID: true,
    method: 'GET',
    summary: 'removes many attendees from the event',
    resources: { person: { item: 'personID' } },
  },
  {
    name: 'event.person.operate',
    eventID: true,
    method: 'POST',
    summary: 'sets one field of many attendees: extra {"key":…,"value":…} (e.g. key tagIDs: applies tags)',
    resources: { person: { item: 'personID' } },
    extra: { key: 'query', value: 'body' },
  },
  {
    name: 'event.email.send',
    method: 'GET',
    summary: 'sends one custom e-mail (targetID: its eventEmailID) to a selection of attendees',
    resources: { person: byPerson('eventEmailID') },
  },
];

export const TARGET_NAMES = TARGETS.map((t) => t.name);
export const targetOf = (name: string): Target | undefined => TARGETS.find((t) => t.name === name);

/** One item, as stored: an id, or an object of strings. */
export type Item = number | Readonly<Record<string, string>>;

const ID = /^[1-9]\d{0,9}$/;

/**
 * The items of `resources` for `form`: a JSON array (of ids, or of objects for a form with fields), or
 * ids separated by commas. Each is checked for its shape here; its values are validated by the single
 * operation's own parameter schemas (daemon.bulk runs them on every item before it queues anything).
 */
export function parseItems(resources: string, form: ResourceForm, max: number): Item[] {
  let list: unknown;
  const text = resources.trim();
  if (text.startsWith('[')) {
    try {
      list = JSON.parse(text);
    } catch {
      throw badRequest('resources must be a JSON array or ids separated by commas');
    }
  } else list = text.split(',').map((v) => v.trim());
  const items = list as unknown[];
  if (!Array.isArray(items) || items.length === 0) throw badRequest('resources must hold at least one item');
  if (items.length > max) throw new ApiError(413, tooMany(items.length, max));
  return items.map((v, i) => itemOf(v, i, form));
}

const tooMany = (n: number, max: number) => `resources holds ${n} items, at most ${max} are allowed in one daemon`;

function itemOf(v: unknown, i: number, form: ResourceForm): Item {
  if (form.fields) {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw badRequest(`resources item ${i} must be an object of ${form.fields.join(', ')}`);
    const out: Record<string, string> = {};
    for (const [k, value] of Object.entries(v)) {
      if (!form.fields.includes(k)) throw badRequest(`resources item ${i} has an unknown field ${k.slice(0, 40)}`);
      if (typeof value !== 'string' && typeof value !== 'number')
        throw badRequest(`resources item ${i} field ${k} must be a string`);
      out[k] = String(value);
    }
    return out;
  }
  const text = typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string' || !ID.test(text) || Number(text) > MAX_ID)
    throw badRequest(`resources item ${i} must be a positive integer up to ${MAX_ID}`);
  return Number(text);
}

/** The extra parameters of `target`: a JSON object of strings, only the keys the target takes. */
export function parseExtra(extra: string | undefined, target: Target): Record<string, string> {
  if (extra === undefined || extra.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(extra);
  } catch {
    throw badRequest('extra must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('extra must be a JSON object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!target.extra || !(k in target.extra))
      throw badRequest(`extra ${k.slice(0, 40)} is not used by ${target.name}`);
    if (typeof v !== 'string' && typeof v !== 'number') throw badRequest(`extra ${k} must be a string`);
    out[k] = String(v);
  }
  return out;
}

/** What the single call of one item holds: its query and body parameters. */
export function callOf(
  target: Target,
  form: ResourceForm,
  fixed: { eventID: number; targetID: number },
  extra: Readonly<Record<string, string>>,
  item: Item,
): { query: Record<string, string>; body: Record<string, string> | undefined } {
  const query: Record<string, string> = {};
  const body: Record<string, string> = {};
  if (form.fixed) query[form.fixed] = String(fixed.targetID);
  if (form.item) query[form.item] = String(item);
  else Object.assign(body, item);
  for (const [k, v] of Object.entries(extra)) (target.extra![k] === 'query' ? query : body)[k] = v;
  if (target.eventID) query.eventID = String(fixed.eventID);
  return { query, body: target.method === 'POST' ? body : undefined };
}

/** The job that runs a bulk daemon's items (src/platform/daemons/run.ts). */
export const DAEMON_JOB = 'daemon.run';
