// The #hashtags of a comment (comment.hashtags counts them): one pass over the text, at most
// MAX_TAGS distinct tags of at most TAG_MAX letters each, lower case, without the '#'. A '#' counts
// only at the start or after a character that cannot be part of a word or of a character reference
// (`&#35;` is not a tag).

export const MAX_TAGS = 20;
export const TAG_MAX = 50;

const TAG = /(?:^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]{1,50})(?![\p{L}\p{N}_])/gu;

export function hashtagsOf(text: string): string[] {
  const tags = new Set<string>();
  for (const m of text.matchAll(TAG)) {
    tags.add(m[1].toLowerCase());
    if (tags.size === MAX_TAGS) break;
  }
  return [...tags];
}
