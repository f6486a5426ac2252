// The allowlist for organizer HTML (event descriptions, section text, speaker descriptions, sponsor
// bios), one set of rules for both places that clean it: the platform on write and the site again on
// render (each hands these rules to sanitize-html). No script/style/iframe, no event handlers, no style
// or id attributes; links only to http, https, mailto, tel or an in-page #anchor; images only from
// absolute http or https addresses. Plain data and functions: no import, safe in any runtime.

type Attribs = Record<string, string>;

export const ALLOWED_TAGS = [
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

/**
 * Elements dropped with everything inside them (not only the tag): their content is code, or a
 * browser parses it as raw text where this parser sees markup (the classic mutation-XSS openings).
 */
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'textarea', 'option', 'select', 'noscript', 'noembed', 'noframes', 'xmp', 'plaintext',
  'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'template', 'title', 'svg', 'math', 'head',
]; // prettier-ignore

const REL_WORDS = new Set(['nofollow', 'noopener', 'noreferrer', 'ugc', 'sponsored', 'external', 'author', 'help']);
const NUMBER = /^\d{1,5}%?$/;
const CONTROL = /[\x00-\x1f\x7f]/; // eslint-disable-line no-control-regex
const SAFE_HREF = /^(?:https?:\/\/[^/\\]|mailto:|tel:|#)/i;
const SAFE_SRC = /^https?:\/\/[^/\\]/i;

/**
 * What a browser's URL parser does first (WHATWG URL: strip leading/trailing C0 controls and spaces,
 * remove tab and newlines anywhere), so the checks see the URL the browser would follow.
 */
function browserUrl(value: string): string {
  return value.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, ''); // eslint-disable-line no-control-regex
}

/** The cleaned link when it is http(s), mailto, tel or an in-page #anchor; otherwise undefined. */
export function safeHref(value: string): string | undefined {
  const url = browserUrl(value);
  return SAFE_HREF.test(url) && !CONTROL.test(url) ? url : undefined;
}

/** The cleaned address when it is absolute http(s) (images, links shown as buttons); otherwise undefined. */
export function safeHttpUrl(value: string): string | undefined {
  const url = browserUrl(value);
  return SAFE_SRC.test(url) && !CONTROL.test(url) ? url : undefined;
}

function withOnly(attribs: Attribs, name: string, value: string | undefined): Attribs {
  const out = { ...attribs };
  if (value === undefined) delete out[name];
  else out[name] = value;
  return out;
}

/** Links: a safe href only; `_blank` as the only target, and then never with access to this page. */
function cleanLink(tagName: string, attribs: Attribs) {
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
}

/** Images: an absolute http(s) src, numeric sizes, a known loading value. */
function cleanImage(tagName: string, attribs: Attribs) {
  let out = withOnly(attribs, 'src', attribs.src === undefined ? undefined : safeHttpUrl(attribs.src));
  for (const size of ['width', 'height'])
    if (out[size] !== undefined && !NUMBER.test(out[size].trim())) out = withOnly(out, size, undefined);
  if (out.loading !== undefined && !['lazy', 'eager'].includes(out.loading)) out = withOnly(out, 'loading', undefined);
  return { tagName, attribs: out };
}

/** sanitize-html options (structurally its IOptions) for organizer HTML. */
export const ORGANIZER_HTML_RULES = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard' as const,
  nonTextTags: DROPPED_WITH_CONTENT,
  parser: { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  transformTags: { a: cleanLink, img: cleanImage },
  // An image without a (safe) address shows nothing: dropped.
  exclusiveFilter: (frame: { tag: string; attribs: Attribs }) => frame.tag === 'img' && !frame.attribs.src,
};
