// The embed configurator in the browser (bundled by Astro into a file; the CSP allows no inline script).
// The server-rendered form works without it (a GET form, the snippet written by the server); this makes
// it live: on every change the snippet and the preview follow, the page address keeps the choice (a
// reload or a shared link shows the same), and the copy button appears. Each element's own declared
// attributes (Lit's elementProperties) that the page does not know get a plain control, so a new
// widget attribute is offered without editing the page.

import {
  choiceFrom,
  elementsOf,
  fieldName,
  LOCALE,
  NOT_OFFERED,
  sendsRegistrations,
  snippetOf,
  WIDGET_IDS,
  WIDGETS,
  type AttributeSpec,
  type ElementPlan,
  type EmbedSite,
  validOfKind,
  type WidgetId,
} from '../shared/embed.ts';
import { themeVars } from '../shared/theme.ts';

/** What Lit keeps of each declared property (the public part of its PropertyDeclaration). */
interface Declared {
  attribute?: boolean | string;
  state?: boolean;
  type?: unknown;
}

/** Attributes of the snippet left out of the preview: sync-url would rewrite this page's own address. */
const NOT_PREVIEWED = new Set(['sync-url']);

function init(root: HTMLElement): void {
  const site = JSON.parse(root.dataset.site ?? '{}') as EmbedSite;
  const grant = root.dataset.grant ?? '';
  const form = root.querySelector<HTMLFormElement>('[data-embed-form]')!;
  const code = root.querySelector<HTMLElement>('[data-embed-code]')!;
  const preview = root.querySelector<HTMLElement>('[data-embed-preview]')!;
  const copy = root.querySelector<HTMLButtonElement>('[data-embed-copy]')!;
  const status = root.querySelector<HTMLElement>('[data-embed-status]')!;
  const note = root.querySelector<HTMLElement>('[data-embed-note]');
  const extra: Partial<Record<WidgetId, AttributeSpec[]>> = {};

  // Live from here on: no "Update" button; the copy button works.
  form.querySelector('[data-embed-submit]')?.setAttribute('hidden', '');
  copy.hidden = false;
  form.addEventListener('submit', (e) => e.preventDefault());

  /**
   * Draws the choice; `fromVisitor`: keep it in the page address too (a reload, a shared link).
   * `typing`: an input event, which may clear a field's error but not raise one (the address is not
   * finished yet); a change (leaving the field, the page loading) says it.
   */
  const update = (fromVisitor = false, typing = false) => {
    const widget = (new FormData(form).get('widget') as WidgetId | null) ?? site.widget;
    // The settings of the other widgets: hidden, and out of the form's data (a disabled fieldset).
    for (const fs of form.querySelectorAll<HTMLFieldSetElement>('fieldset[data-widget]')) {
      const on = fs.dataset.widget === widget;
      fs.hidden = !on;
      fs.disabled = !on;
    }
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === 'string') params.append(k, v);
    const choice = choiceFrom(params, site, extra);
    // A value that will not do (a malformed e-mail) stays in its field, as typed, described by why,
    // and out of the snippet and the preview until it will.
    for (const error of form.querySelectorAll<HTMLElement>('[data-error-of]')) {
      const input = form.elements.namedItem(error.dataset.errorOf!) as HTMLInputElement;
      const bad = choice.refused.some(([name]) => fieldName(choice.widget, name) === input.name);
      if (bad && typing && error.hidden) continue;
      error.hidden = !bad;
      if (bad) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', error.id);
      } else {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
    }
    code.textContent = snippetOf(choice, site);
    if (note) note.hidden = !sendsRegistrations(choice);
    status.textContent = '';
    showPreview(preview, elementsOf(choice, site), grant);
    // The look the snippet gives, set through the CSSOM (a style attribute would need 'unsafe-inline').
    const vars = themeVars({ mainColor: choice.mainColor, backgroundColor: choice.backgroundColor });
    for (const [name, value] of Object.entries(vars))
      if (name.startsWith('--podium-color-')) preview.style.setProperty(name, value);
    if (!fromVisitor) return;
    const url = new URL(location.href);
    url.search = params.toString();
    history.replaceState(history.state, '', url);
  };
  form.addEventListener('input', () => update(true, true));
  form.addEventListener('change', () => update(true));

  copy.addEventListener('click', async () => {
    const text = code.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = root.dataset.copied ?? '';
    } catch {
      // No clipboard (an old browser, no permission, not https): select the code for Ctrl+C.
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      status.textContent = root.dataset.copyFailed ?? '';
    }
  });

  // The attributes each element declares beyond the page's list: a control each, once it is defined.
  for (const id of WIDGET_IDS) {
    const { tag, attributes } = WIDGETS[id];
    void customElements.whenDefined(tag).then((element) => {
      const known = new Set([...attributes.map((a) => a.name), LOCALE.name, ...NOT_OFFERED]);
      const declared = (element as unknown as { elementProperties?: Map<PropertyKey, Declared> }).elementProperties;
      const more: AttributeSpec[] = [];
      for (const [key, d] of declared ?? []) {
        if (d.state || d.attribute === false || typeof key !== 'string') continue;
        const name = typeof d.attribute === 'string' ? d.attribute : key.toLowerCase();
        if (known.has(name)) continue;
        const kind = d.type === Boolean ? 'boolean' : d.type === Number ? 'number' : 'text';
        more.push({ name, kind, valid: validOfKind(kind) });
      }
      if (more.length === 0) return;
      extra[id] = more;
      const box = form.querySelector<HTMLFieldSetElement>(`[data-more="${id}"]`);
      if (box) {
        // Their values in the page address too (a reload, a shared link): the server does not know them.
        const sent = new URLSearchParams(location.search);
        box.append(...more.map((spec) => control(id, spec, root.dataset, sent)));
        box.hidden = false;
      }
      update();
    });
  }
  update();
}

/**
 * A plain control for an attribute the page has no words for: its name is its label. One with a rule
 * (validOfKind) has its message under it (`data-<kind>-invalid` on the page), hidden until a value will
 * not do (update shows it). It starts with its value in `sent`, the page address.
 */
function control(widget: WidgetId, spec: AttributeSpec, messages: DOMStringMap, sent: URLSearchParams): HTMLElement {
  const input = document.createElement('input');
  input.name = fieldName(widget, spec.name);
  input.id = `embed-${widget}-${spec.name}`;
  const name = document.createElement('code');
  name.textContent = spec.name;
  const label = document.createElement('label');
  if (spec.kind === 'boolean') {
    input.type = 'checkbox';
    input.value = '1';
    input.checked = sent.has(input.name);
    label.className = 'embed-check';
    label.append(input, name);
    return label;
  }
  // A number in a text field (a numeric keyboard on phones): type="number" would drop what is not a
  // number without a word, and the organizer's value with it; this keeps it, as typed, with why.
  input.type = 'text';
  if (spec.kind === 'number') input.inputMode = 'decimal';
  input.value = sent.get(input.name) ?? '';
  input.autocomplete = 'off';
  label.htmlFor = input.id;
  label.append(name);
  const field = document.createElement('div');
  field.className = 'field';
  field.append(label, input);
  if (spec.valid) {
    const error = document.createElement('p');
    error.className = 'embed-error';
    error.id = `${input.id}-error`;
    error.dataset.errorOf = input.name;
    // Said when it shows: it shows when the field is left, where nothing else would read it out.
    error.setAttribute('role', 'alert');
    error.textContent = messages[`${spec.kind}Invalid`] ?? '';
    error.hidden = true;
    field.append(error);
  }
  return field;
}

const shape = (p: ElementPlan): string => `${p.tag}(${p.children.map(shape).join(',')})`;

/**
 * The preview: the plan's elements, built once per shape (widget and what the gate holds) and then
 * changed in place, as a page changing attributes would (the widgets follow their attributes).
 */
function showPreview(box: HTMLElement, plan: ElementPlan, grant: string): void {
  let element = box.firstElementChild as HTMLElement | null;
  if (!element || box.dataset.shape !== shape(plan)) {
    element = build(plan);
    box.replaceChildren(element);
    box.dataset.shape = shape(plan);
  }
  setAttributes(element, plan, grant);
}

function build(plan: ElementPlan): HTMLElement {
  const element = document.createElement(plan.tag);
  element.append(...plan.children.map(build));
  return element;
}

function setAttributes(element: Element, plan: ElementPlan, grant: string): void {
  const wanted = new Map(plan.attributes.filter(([n]) => !NOT_PREVIEWED.has(n)));
  // A private event's preview reads with the visitor's grant (never part of the snippet).
  if (grant) wanted.set('grant', grant);
  for (const { name } of [...element.attributes]) if (!wanted.has(name)) element.removeAttribute(name);
  for (const [name, value] of wanted) {
    const text = value === true ? '' : value;
    if (element.getAttribute(name) !== text) element.setAttribute(name, text);
  }
  plan.children.forEach((child, i) => setAttributes(element.children[i], child, grant));
}

const root = document.querySelector<HTMLElement>('[data-embed]');
if (root) init(root);
