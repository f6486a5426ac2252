// Organizer HTML (event descriptions, section text, speaker descriptions, sponsor bios) is sanitized by
// the platform on write and again here on render, with the same rules (src/shared/organizer-html.ts).
// Headings are rebased so organizer text under a section's <h2> keeps the page's heading order. Results
// are remembered per input: a page shows the same texts on every render.

import { LRUCache } from 'lru-cache';
import sanitizeHtml from 'sanitize-html';
import { ORGANIZER_HTML_RULES } from '../shared/organizer-html.ts';

export { safeHref, safeHttpUrl } from '../shared/organizer-html.ts';

/** The platform's rules, and on the page an image without alt text is decorative to a screen reader. */
const OPTIONS: sanitizeHtml.IOptions = {
  ...ORGANIZER_HTML_RULES,
  transformTags: {
    ...ORGANIZER_HTML_RULES.transformTags,
    img(tagName, attribs) {
      const out = ORGANIZER_HTML_RULES.transformTags.img(tagName, attribs);
      return out.attribs.alt === undefined ? { tagName, attribs: { ...out.attribs, alt: '' } } : out;
    },
  },
};

/**
 * Headings moved so the fragment's highest one is an <h3>, keeping their relative levels (organizer
 * text sits under a section's <h2>; the page's heading order stays without gaps).
 */
function rebaseHeadings(html: string): string {
  let min = 7;
  for (const m of html.matchAll(/<h([2-6])[\s>]/g)) min = Math.min(min, Number(m[1]));
  if (min === 7 || min === 3) return html;
  const shift = 3 - min;
  return html.replace(
    /<(\/?)h([2-6])(?=[\s>])/g,
    (_, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + shift)}`,
  );
}

/** Cleaned organizer HTML by input: the same few texts are shown on every render of their pages. */
const cleaned = new LRUCache<string, string>({
  max: 5000,
  memoMethod: (html) => rebaseHeadings(sanitizeHtml(html, OPTIONS)),
});

/** Organizer HTML cleaned for the page (remembered per input). */
export function organizerHtml(html: string): string {
  return html === '' ? '' : cleaned.memo(html);
}

/** What people write (comments): no tag at all, `&`, `<`, `>` as references — the platform's rule for it, again on render. */
const USER_TEXT: sanitizeHtml.IOptions = { ...ORGANIZER_HTML_RULES, allowedTags: [], allowedAttributes: {} };

/** A person's text (already plain on the platform) as HTML that can only be text. */
export function userHtml(text: string): string {
  return sanitizeHtml(text, USER_TEXT).trim();
}

const plainTexts = new LRUCache<string, string>({ max: 5000 });

/** Organizer HTML as one line of plain text (meta descriptions, JSON-LD), at most `max` characters (remembered). */
export function plainText(html: string, max = 300): string {
  const key = `${max}|${html}`;
  let text = plainTexts.get(key);
  if (text === undefined) plainTexts.set(key, (text = plainTextOf(html, max)));
  return text;
}

function plainTextOf(html: string, max: number): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** JSON for a <script type="application/ld+json"> block: nothing in it can close the element. */
const JSON_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => JSON_ESCAPES[c]);
}
