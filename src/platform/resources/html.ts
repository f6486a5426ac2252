import { createRequire } from 'node:module';
import type SanitizeHtml from 'sanitize-html';
import { ORGANIZER_HTML_RULES } from '../../shared/organizer-html.ts';

// Organizer HTML (event descriptions, section text, speaker descriptions, sponsor bios) is cleaned on
// write with the allowlist of src/shared/organizer-html.ts; the site cleans it again on render with the
// same rules.

// Loaded at the first use, not with every module that imports this one (a worker: docs/api/reports.md "Memory").
let loaded: typeof SanitizeHtml | undefined;
const sanitizeHtml: typeof SanitizeHtml = ((html: string, options?: SanitizeHtml.IOptions) =>
  (loaded ??= createRequire(import.meta.url)('sanitize-html') as typeof SanitizeHtml)(
    html,
    options,
  )) as typeof SanitizeHtml;

export function sanitizeOrganizerHtml(html: string): string {
  return sanitizeHtml(html, ORGANIZER_HTML_RULES);
}

/**
 * What people write to each other (chat messages, comments on sessions): plain text, no markup at all.
 * Every tag is dropped (script, style and the other raw-text elements with their content, as for
 * organizer HTML); the text that is left has `&`, `<` and `>` as character references, so the stored
 * value is safe as the content of an element (not inside an attribute value: quotes stay as typed) and
 * shows as the text the person typed.
 */
export function sanitizeUserText(text: string): string {
  return sanitizeHtml(text, { ...ORGANIZER_HTML_RULES, allowedTags: [], allowedAttributes: {} }).trim();
}
