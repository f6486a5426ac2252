import type { TemplateResult } from 'lit';

// Organizer HTML (help texts, the consent text, session descriptions), sanitized by the platform when it
// was written, drawn as a template of its own: the very value Lit's unsafeHTML directive makes, without
// the directive machinery. Lit prepares it like any template, through its `lit-html` Trusted Types
// policy, so it is drawn where `require-trusted-types-for 'script'` is enforced; the template is kept
// per text, so drawing the same text again reuses its DOM.

const made = new Map<string, TemplateResult>();

export function organizerHTML(text: string): TemplateResult {
  let template = made.get(text);
  if (!template)
    made.set(text, (template = { ['_$litType$']: 1, strings: Object.assign([text], { raw: [text] }), values: [] }));
  return template;
}
