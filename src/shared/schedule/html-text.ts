// The conversion of text.ts's htmlToText, with the entity decoder handed in, in a module that imports
// nothing: the agenda widget's calendar chunk takes this alone and the agenda's decodeEntities, so the
// conversion is downloaded with the calendar only (esbuild splits chunks by module).

/**
 * HTML → plain text: block ends and <br> become line breaks (a blank line between paragraphs), list items
 * get "• ", tags are dropped, entities decoded by `decode`, spaces collapsed. Script/style content is
 * dropped. Use text.ts's htmlToText.
 */
export function htmlAsText(html: string, decode: (text: string) => string): string {
  if (!html) return '';
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\s+/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|ul|ol|blockquote|pre|table|section|article|header|footer|dl)\s*>/gi, '\n\n')
    .replace(/<\/(tr|dt|dd)\s*>/gi, '\n')
    .replace(/<(p|div|h[1-6]|ul|ol|blockquote|pre|table|section|article|dl)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  return decode(text)
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
