// The text of event.search (docs/api/search.md): what an indexed text and a query are made of, the same
// on both stores. Words are runs of letters and digits (Unicode); case and accents are folded away, so
// "São", "sao" and "SAO" are one word. SQLite's FTS5 tokenizer (unicode61, remove_diacritics 2) does
// this itself; on PostgreSQL the 'simple' configuration only lowercases, so the platform folds the text
// it indexes and every query term here (no unaccent extension needed, and no language's stemming: an
// event may be in English, Portuguese or Spanish, or all three).

/** Most words of a query that count (the rest are dropped): the query stays small whatever is typed. */
export const MAX_TERMS = 8;
/** Most characters of a body that are indexed (organizer HTML can be long; the start says what it is). */
export const MAX_BODY = 20_000;

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower case, accents off (NFD, combining marks removed). */
export const fold = (text: string): string => text.normalize('NFD').replace(MARKS, '').toLowerCase();

/** Organizer HTML as text: tags out, the common character references read, blanks collapsed. Linear. */
export function plain(html: string): string {
  return html
    .replace(/<[^>]{0,2000}>/g, ' ')
    .replace(
      /&(amp|lt|gt|quot|#39|nbsp);/g,
      (_m, r: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[r] ?? ' ',
    ) // prettier-ignore
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Text as PostgreSQL indexes it: folded, then only its words, one blank apart. Its parser would otherwise
 * keep an e-mail, a URL or a file name as one lexeme (`qq-private@x.test`) where FTS5 and a query see
 * words (`qq`, `private`, `x`, `test`).
 */
export const wordsOf = (text: string): string => (fold(text).match(WORD) ?? []).join(' ');

/** A query's words: folded, at most MAX_TERMS, the last one matched as a prefix (as-you-type). */
export interface Terms {
  readonly words: readonly string[];
}

/**
 * The words of what a person typed. Only letters and digits survive, so nothing typed can be an operator
 * of either store's query language (quotes, `*`, `-`, `:`, NEAR, AND/OR, parentheses are separators or
 * plain words, quoted before use); one linear pass. An empty list: nothing to find.
 */
export function termsOf(query: string): Terms {
  const words = fold(query).match(WORD) ?? [];
  return { words: words.slice(0, MAX_TERMS) };
}
