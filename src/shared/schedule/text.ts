// Organizer HTML (already sanitized by the platform) as plain text: for calendar descriptions, search and
// meta descriptions. Not a sanitizer: the output is text, to be escaped like any other text.

import { decodeEntities } from './entities.ts';
import { htmlAsText } from './html-text.ts';

export { decodeEntities } from './entities.ts';

/**
 * HTML → plain text: block ends and <br> become line breaks (a blank line between paragraphs), list items
 * get "• ", tags are dropped, entities decoded, spaces collapsed. Script/style content is dropped.
 */
export const htmlToText = (html: string): string => htmlAsText(html, decodeEntities);
