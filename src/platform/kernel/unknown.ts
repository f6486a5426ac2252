// The refusal of a parameter an operation does not take (dispatch.ts refuseUnknown): it names the
// closest parameter the operation does take, as a misspelling usually is one or two letters off, or
// else lists them all, so that the caller can fix the call from the error line alone.

import { distance } from 'fastest-levenshtein';

/** Longest part of a sent name repeated in the error line. */
const NAME_SHOWN = 60;

/**
 * `400` text for `name`, which `operation` does not take. `takes` are its own parameters (listed when
 * nothing is close), `shared` the names every operation takes (only suggested); `pattern` the example of
 * the names of a pattern it also takes (`feedback_<feedbackID>`).
 */
export function unknownParameter(
  name: string,
  operation: string,
  takes: readonly string[],
  shared: readonly string[],
  pattern?: string,
): string {
  const shown = name.length > NAME_SHOWN ? `${name.slice(0, NAME_SHOWN)}…` : name;
  const head = `${shown || '(an empty name)'} is not a parameter of ${operation}`;
  let best: string | undefined;
  let bestDistance = Infinity;
  // Only short names are compared: a long one is no misspelling, and distance() is quadratic in length.
  if (name.length <= NAME_SHOWN)
    for (const known of [...takes, ...shared]) {
      const d = distance(name.toLowerCase(), known.toLowerCase());
      if (d < bestDistance) [best, bestDistance] = [known, d];
    }
  // Two edits at most (a swapped pair of letters is two), and fewer than half the name's letters.
  if (best !== undefined && bestDistance <= 2 && bestDistance * 2 < best.length)
    return `${head}: did you mean ${best}?`;
  const more = pattern ? ` and ${pattern}` : '';
  return `${head}, which takes ${takes.length > 0 ? takes.join(', ') : 'none'}${more}`;
}
