// Organizer HTML (event descriptions, section text, speaker descriptions, sponsor bios) is sanitized by
// the platform on write and again here on render, with the site's copy of the same allowlist (the site
// never imports src/platform). Headings are rebased so organizer text under a section's <h2> keeps the
// page's heading order. Results are remembered per input: a page shows the same texts on
// every render.

import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup',
  'blockquote', 'code', 'pre', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a', 'img', 'figure', 'figcaption',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'caption', 'span', 'div',
]; // prettier-ignore

const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel', 'target'],
  img: ['src', 'alt', 'width', 'height', 'loading'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
};

/** Dropped with their content: code, or raw text to a browser where the parser sees markup (mXSS). */
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'textarea', 'option', 'select', 'noscript', 'noembed', 'noframes', 'xmp', 'plaintext',
  'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'template', 'title', 'svg', 'math', 'head',
]; // prettier-ignore

const REL_WORDS = new Set(['nofollow', 'noopener', 'noreferrer', 'ugc', 'sponsored', 'external', 'author', 'help']);
const NUMBER = /^\d{1,5}%?$/;
const CONTROL = /[\x00-\x1f\x7f]/; // eslint-disable-line no-control-regex
const SAFE_HREF = /^(?:https?:\/\/[^/\\]|mailto:|tel:|#)/i;
const SAFE_SRC = /^https?:\/\/[^/\\]/i;

/** What a browser's URL parser does first: strip C0 controls and spaces at the ends, drop tabs/newlines. */
function browserUrl(value: string): string {
  return value.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, ''); // eslint-disable-line no-control-regex
}

/** The link when it is http(s), mailto, tel or an in-page #anchor; otherwise undefined. */
export function safeHref(value: string): string | undefined {
  const url = browserUrl(value);
  return SAFE_HREF.test(url) && !CONTROL.test(url) ? url : undefined;
}

/** The address when it is absolute http(s) (images, organizer links shown as buttons); otherwise undefined. */
export function safeHttpUrl(value: string): string | undefined {
  const url = browserUrl(value);
  return SAFE_SRC.test(url) && !CONTROL.test(url) ? url : undefined;
}

function withOnly(attribs: Record<string, string>, name: string, value: string | undefined) {
  const out = { ...attribs };
  if (value === undefined) delete out[name];
  else out[name] = value;
  return out;
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  parser: { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  transformTags: {
    a(tagName, attribs) {
      let out = withOnly(attribs, 'href', attribs.href === undefined ? undefined : safeHref(attribs.href));
      const blank = (out.target ?? '').trim().toLowerCase() === '_blank';
      const rel = (out.rel ?? '')
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => REL_WORDS.has(w));
      if (blank) rel.push('noopener', 'noreferrer');
      out = withOnly(out, 'target', blank ? '_blank' : undefined);
      out = withOnly(out, 'rel', rel.length > 0 ? [...new Set(rel)].join(' ') : undefined);
      return { tagName, attribs: out };
    },
    img(tagName, attribs) {
      let out = withOnly(attribs, 'src', attribs.src === undefined ? undefined : safeHttpUrl(attribs.src));
      for (const size of ['width', 'height'])
        if (out[size] !== undefined && !NUMBER.test(out[size].trim())) out = withOnly(out, size, undefined);
      if (out.loading !== undefined && !['lazy', 'eager'].includes(out.loading))
        out = withOnly(out, 'loading', undefined);
      // An image without alt text is decorative to a screen reader.
      if (out.alt === undefined) out = withOnly(out, 'alt', '');
      return { tagName, attribs: out };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

const memo = new Map<string, string>();
const MAX_MEMO = 5000;

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

/** Organizer HTML cleaned for the page (remembered per input). */
export function organizerHtml(html: string): string {
  if (html === '') return '';
  let out = memo.get(html);
  if (out === undefined) {
    out = rebaseHeadings(sanitizeHtml(html, OPTIONS));
    if (memo.size >= MAX_MEMO) memo.delete(memo.keys().next().value!);
    memo.set(html, out);
  }
  return out;
}

/** Organizer HTML as one line of plain text (meta descriptions, JSON-LD), at most `max` characters. */
export function plainText(html: string, max = 300): string {
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
