import type { RawHit, SearchType } from './repository.ts';
import { SEARCH_TYPES } from './repository.ts';

// event.search's ranking and snippets (docs/api/search.md): in memory over at most PER_TYPE rows of each
// type, every step one linear pass over a row's text.

export const SNIPPET = 160;

export interface Hit extends RawHit {
  rank: number;
  snippet: string;
}

/** Organizer HTML as text for a snippet: tags out, the common character references read, spaces collapsed. */
function plain(html: string): string {
  return html
    .replace(/<[^>]{0,2000}>/g, ' ')
    .replace(
      /&(amp|lt|gt|quot|#39|nbsp);/g,
      (_m, r: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[r] ?? ' ',
    ) // prettier-ignore
    .replace(/\s+/g, ' ')
    .trim();
}

/** Up to SNIPPET characters of `text` around the first place `needle` is found (from the start when it is not). */
function snippetOf(text: string, needle: string): string {
  const t = plain(text);
  if (t.length <= SNIPPET) return t;
  const at = Math.max(0, t.toLowerCase().indexOf(needle));
  const start = Math.max(0, Math.min(at - 40, t.length - SNIPPET));
  return `${start > 0 ? '…' : ''}${t.slice(start, start + SNIPPET).trim()}${start + SNIPPET < t.length ? '…' : ''}`;
}

/** 3: the title starts with the query; 2: a word of the title does; 1: the title holds it; 0: only the text. */
function rankOf(title: string, needle: string): number {
  const t = title.toLowerCase();
  if (t.startsWith(needle)) return 3;
  const at = t.indexOf(needle);
  if (at < 0) return 0;
  return /[\s\-_.,;:/(]/.test(t[at - 1]) ? 2 : 1;
}

const ORDER = new Map<SearchType, number>(SEARCH_TYPES.map((t, i) => [t, i]));

export function rankHits(hits: readonly RawHit[], query: string): Hit[] {
  const needle = query.toLowerCase();
  return hits
    .map((h) => ({ ...h, rank: rankOf(h.title, needle), snippet: snippetOf(h.text, needle) }))
    .sort(
      (a, b) =>
        b.rank - a.rank || ORDER.get(a.type)! - ORDER.get(b.type)! || a.title.localeCompare(b.title) || a.id - b.id,
    );
}
