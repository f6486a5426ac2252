import { fold } from './text.ts';

// event.search's snippets (docs/api/search.md): the store ranks and pages the hits; each hit of the page
// gets up to SNIPPET characters of its (already plain) text around the first word of the query found.

export const SNIPPET = 160;

/** `text` folded one character at a time, so an index in it is an index in `text`. */
function foldSameLength(text: string): string {
  let out = '';
  for (const c of text) {
    const f = fold(c);
    out += f.length === c.length ? f : c;
  }
  return out;
}

/** Up to SNIPPET characters of `text` around the first place one of `words` starts (from the start when none does). */
export function snippetOf(text: string, words: readonly string[]): string {
  if (text.length <= SNIPPET) return text;
  const folded = foldSameLength(text);
  let at = -1;
  for (const w of words) {
    const i = folded.indexOf(w);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, Math.min(at - 40, text.length - SNIPPET));
  return `${start > 0 ? '…' : ''}${text.slice(start, start + SNIPPET).trim()}${start + SNIPPET < text.length ? '…' : ''}`;
}

/** A hit's rank in the answer: its score in thousandths of the best hit's (1000: as good as the best). */
export const rankOf = (score: number, top: number): number =>
  top > 0 ? Math.max(0, Math.min(1000, Math.round((1000 * score) / top))) : 0;
