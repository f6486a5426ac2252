// A person's initials, for the circle shown where their photo is missing or does not load.

/** The first letters of the first and last words, upper-cased ("Inês Quental" → "IQ", "Kofi" → "K"). */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /^\p{L}/u.test(w));
  if (words.length === 0) return '';
  // Array.from: a letter outside the BMP is one character, not half of a surrogate pair.
  const first = (w: string) => Array.from(w)[0].toLocaleUpperCase();
  return words.length === 1 ? first(words[0]) : first(words[0]) + first(words[words.length - 1]);
}
