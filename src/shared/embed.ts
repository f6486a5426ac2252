// The embed configurator's snippet (the /{company}/{event}/embed page): which widget, which of its
// attributes, which colours → the HTML an organizer pastes into their page. One piece for the server
// (the page's HTML, with or without JavaScript: the configurator is a GET form) and the browser (the
// live snippet and preview, from the same form's FormData).

import { isDayKey } from './schedule/time.ts';
import { normalizeColor, themeVars } from './theme.ts';

export type WidgetId = 'registration' | 'agenda' | 'gate';

/** How an attribute is set: its control, and how its value goes into the snippet. */
export interface AttributeSpec {
  name: string;
  /** text/number: one value; boolean: present or not; choice: one of some values; list: values joined by commas. */
  kind: 'text' | 'number' | 'boolean' | 'choice' | 'list';
  /** The widget's own default: a value equal to it is left out of the snippet. */
  default?: string;
  /** The value it starts with when the widget's settings were not sent (the page's suggestion). */
  initial?: (site: EmbedSite) => string;
  /**
   * Whether a value will do, by the rule the widget itself applies to it (a list's: each item's): one
   * that will not is left out of the snippet (EmbedChoice.refused). Without one, every value will do.
   */
  valid?: (value: string) => boolean;
}

export interface WidgetSpec {
  tag: string;
  /** Its own attributes, in the order the snippet writes them (the common ones are COMMON). */
  attributes: AttributeSpec[];
}

export const WIDGET_IDS: readonly WidgetId[] = ['registration', 'agenda', 'gate'];

/**
 * The attributes the page knows how to offer (labels and choices are the page's). The browser adds a
 * plain control for any other attribute the element declares (embed.client.ts), so a new attribute
 * appears without editing this.
 */
export const WIDGETS: Record<WidgetId, WidgetSpec> = {
  registration: {
    tag: 'podium-registration',
    attributes: [
      { name: 'rsvp', kind: 'boolean' },
      { name: 'first-name', kind: 'text' },
      { name: 'last-name', kind: 'text' },
      { name: 'email', kind: 'text', valid: (v) => isEmail(v) },
      { name: 'invite-param', kind: 'text', default: 'invite' },
    ],
  },
  agenda: {
    tag: 'podium-agenda',
    attributes: [
      // The agenda's own reading (agenda.ts, willUpdate and content): any other view is the list, any
      // other zone the event's, a day not YYYY-MM-DD matches none, a tag not a positive number is dropped.
      { name: 'view', kind: 'choice', default: 'list', valid: (v) => v === 'grid' },
      { name: 'tz', kind: 'choice', default: 'event', valid: (v) => v === 'local' },
      { name: 'days', kind: 'list', valid: isDayKey },
      { name: 'rooms', kind: 'list' },
      { name: 'tags', kind: 'list', valid: (v) => /^\d{1,15}$/.test(v) && Number(v) > 0 },
      { name: 'q', kind: 'text' },
      { name: 'mine', kind: 'boolean' },
      { name: 'hide-controls', kind: 'boolean' },
      { name: 'sync-url', kind: 'boolean' },
      // Each session's title links to its page on this site (a checkbox whose value is the address).
      { name: 'site', kind: 'text', initial: (site) => site.eventUrl, valid: (v) => SITE_BASE.test(v) },
    ],
  },
  gate: { tag: 'podium-access-gate', attributes: [] },
};

/**
 * What the agenda takes as `site` (agenda.ts, `#base`): a URL or an absolute path, never `javascript:`;
 * anything else and the sessions link nowhere. tests/shared/embed.test.ts checks the agenda's is this one.
 */
export const SITE_BASE = /^(https?:)?\//i;

/**
 * The rule of an attribute the browser found on an element (embed.client.ts), by its declared type: a
 * Number attribute is Lit's `Number(value)`, which a value that is not a number turns into NaN.
 */
export const validOfKind = (kind: AttributeSpec['kind']): AttributeSpec['valid'] =>
  kind === 'number' ? (v) => Number.isFinite(Number(v)) : undefined;

/** The attribute every widget has that the configurator offers ('' = the page's language). */
export const LOCALE: AttributeSpec = { name: 'locale', kind: 'choice', default: '' };

/**
 * Attributes never offered: the page sets api and event itself; a grant and an invitation belong to
 * one visitor, not to a page; `now` is for previews and tests.
 */
export const NOT_OFFERED: readonly string[] = ['api', 'event', 'grant', 'invite', 'now'];

/** What a gate may hold (each with the common attributes only). */
export const INSIDE_GATE: readonly WidgetId[] = ['agenda', 'registration'];

/**
 * A hidden field in each widget's settings: they were sent, so a box left unticked means "no" rather
 * than "not chosen yet" (a box sends nothing when unticked).
 */
export const sentField = (widget: WidgetId): string => `${widget}:sent`;

/** The form field of a widget's attribute (the widget's name first: two widgets may share a name). */
export const fieldName = (widget: WidgetId, attribute: string): string => `${widget}:${attribute}`;

export interface EmbedSite {
  /** The site's address (SITE_URL), where /widgets/ is served. */
  siteUrl: string;
  /** The platform's public API (the `api` attribute). */
  api: string;
  /** The `event` attribute: `company/nickname`. */
  event: string;
  /** The event's pages on this site (its canonical address), for the agenda's session links. */
  eventUrl: string;
  /** The colours the form starts with (the event's branding). */
  mainColor: string;
  backgroundColor: string;
  /** The widget the form starts with (the gate for a private event). */
  widget: WidgetId;
}

export type Attribute = [name: string, value: string | true];

/**
 * An address the registration form can take as its prefill: the browser's own rule for
 * `<input type="email">` (HTML's "valid e-mail address": ASCII, no spaces, one @, a domain of labels)
 * and the platform's (a dot in the domain), at most 320 characters. A prefill either refuses would
 * stop every visitor's registration at a field they did not type.
 */
export const isEmail = (v: string): boolean =>
  v.length <= 320 &&
  /^[\w.!#$%&'*+/=?^`{|}~-]+@[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)+$/i.test(v);

export interface EmbedChoice {
  widget: WidgetId;
  locale: string;
  /** The chosen widget's attributes, as the snippet writes them (defaults and empty values left out). */
  attributes: Attribute[];
  /** Values typed that will not do (a malformed e-mail): out of the snippet, kept for the form to show. */
  refused: [name: string, value: string][];
  /** For the gate: the widgets inside it. */
  inside: WidgetId[];
  mainColor: string;
  backgroundColor: string;
}

/** Whether the widgets of a choice send registrations (the registration form, alone or inside the gate). */
export const sendsRegistrations = (c: EmbedChoice): boolean =>
  c.widget === 'registration' || (c.widget === 'gate' && c.inside.includes('registration'));

const isWidget = (v: unknown): v is WidgetId => WIDGET_IDS.includes(v as WidgetId);

/**
 * The choice a submitted form (or a page address) holds. `extra` are the attributes the browser found
 * on the elements beyond WIDGETS. Unknown values fall back to the defaults: this reads a URL anyone can type.
 */
export function choiceFrom(
  params: URLSearchParams,
  site: EmbedSite,
  extra: Partial<Record<WidgetId, AttributeSpec[]>> = {},
): EmbedChoice {
  const w = params.get('widget');
  const widget: WidgetId = isWidget(w) ? w : site.widget;
  const attributes: Attribute[] = [];
  const refused: [string, string][] = [];
  const sent = params.has(sentField(widget));
  for (const spec of [...WIDGETS[widget].attributes, ...(extra[widget] ?? [])]) {
    const field = fieldName(widget, spec.name);
    const values = (spec.initial && !sent && !params.has(field) ? [spec.initial(site)] : params.getAll(field)).map(
      (v) => v.trim().slice(0, 500),
    );
    if (spec.kind === 'boolean') {
      if (values.length > 0) attributes.push([spec.name, true]);
      continue;
    }
    const valid = spec.valid ?? (() => true);
    if (spec.kind === 'list') {
      // Each item by itself (a comma list typed in an address): the good ones stay, as the widget keeps them.
      const items = values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
      const bad = items.filter((v) => !valid(v));
      if (bad.length > 0) refused.push([spec.name, bad.join(',')]);
      const good = items.filter(valid).join(',');
      if (good !== '') attributes.push([spec.name, good]);
      continue;
    }
    const value = values[0] ?? '';
    if (value === '' || value === spec.default) continue;
    if (valid(value)) attributes.push([spec.name, value]);
    else refused.push([spec.name, value]);
  }
  const locale = params.get(LOCALE.name) ?? '';
  // Not sent (a plain address, or another widget's settings), the gate starts with the program.
  const inside = params.has(sentField('gate')) ? params.getAll(fieldName('gate', 'inside')) : ['agenda'];
  return {
    widget,
    locale: ['en', 'pt', 'es'].includes(locale) ? locale : '',
    attributes,
    refused,
    inside: INSIDE_GATE.filter((id) => inside.includes(id)),
    mainColor: normalizeColor(params.get('main-color')) ?? site.mainColor,
    backgroundColor: normalizeColor(params.get('background-color')) ?? site.backgroundColor,
  };
}

/** One element of the snippet (and of the preview): its tag, its attributes in order, what it holds. */
export interface ElementPlan {
  tag: string;
  attributes: Attribute[];
  children: ElementPlan[];
}

/** The elements a choice makes: the widget, or the gate with the widgets inside it. */
export function elementsOf(choice: EmbedChoice, site: Pick<EmbedSite, 'api' | 'event'>): ElementPlan {
  const common: Attribute[] = [
    ['api', site.api],
    ['event', site.event],
  ];
  if (choice.locale) common.push(['locale', choice.locale]);
  return {
    tag: WIDGETS[choice.widget].tag,
    attributes: [...common, ...choice.attributes],
    children:
      choice.widget === 'gate'
        ? choice.inside.map((id) => ({ tag: WIDGETS[id].tag, attributes: common, children: [] }))
        : [],
  };
}

/** The widgets' own colours (their CSS falls back to these; tests/widgets/manifest.test.ts checks it). */
const DEFAULT_VARS: Record<string, string> = themeVars();

/**
 * The --podium-color-* properties of two colours (the others derived from them, readable on them), less
 * those equal to the widgets' own: none for the default colours.
 */
export function colorsOf(choice: EmbedChoice): [string, string][] {
  const vars = themeVars({ mainColor: choice.mainColor, backgroundColor: choice.backgroundColor });
  return Object.entries(vars).filter(([name, v]) => name.startsWith('--podium-color-') && v !== DEFAULT_VARS[name]);
}

const escapeAttribute = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function elementHtml(plan: ElementPlan, indent: string): string {
  const attrs = plan.attributes
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`))
    .join('');
  const inner = plan.children.map((c) => `${elementHtml(c, `${indent}  `)}\n`).join('');
  return `${indent}<${plan.tag}${attrs}>${inner ? `\n${inner}${indent}` : ''}</${plan.tag}>`;
}

/** The loader a set of tags needs: one widget's own, or podium.js for several kinds (docs/widgets.md). */
export function loaderOf(plan: ElementPlan): string {
  const tags = new Set<string>();
  const walk = (p: ElementPlan) => (tags.add(p.tag), p.children.forEach(walk));
  walk(plan);
  return tags.size === 1 ? `${[...tags][0]}.js` : 'podium.js';
}

/** The snippet to paste: the loader, the colours (when not the defaults) and the element. */
export function snippetOf(choice: EmbedChoice, site: EmbedSite): string {
  const plan = elementsOf(choice, site);
  const colors = colorsOf(choice);
  // Another background paints the widget's own box, as the preview does: its colours are readable on
  // that background, not on whatever page the snippet goes into (a dark theme's labels on a white page).
  const bg = colors.find(([name]) => name === '--podium-color-bg')?.[1];
  const rules = bg ? [...colors, ['background-color', bg], ['padding', '1rem']] : colors;
  const style = rules.length
    ? `<style>\n  ${plan.tag} {\n${rules.map(([n, v]) => `    ${n}: ${v};\n`).join('')}  }\n</style>\n`
    : '';
  return `<script type="module" src="${escapeAttribute(site.siteUrl)}/widgets/${loaderOf(plan)}"></script>\n${style}${elementHtml(plan, '')}\n`;
}
