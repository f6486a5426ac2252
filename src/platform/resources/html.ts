import sanitizeHtml from 'sanitize-html';
import { ORGANIZER_HTML_RULES } from '../../shared/organizer-html.ts';

// Organizer HTML (event descriptions, section text, speaker descriptions, sponsor bios) is cleaned on
// write with the allowlist of src/shared/organizer-html.ts; the site cleans it again on render with the
// same rules.

export function sanitizeOrganizerHtml(html: string): string {
  return sanitizeHtml(html, ORGANIZER_HTML_RULES);
}
