// Brotli's settings for one body, shared by the platform's answer cache and the site's pages.
import { constants } from 'node:zlib';

/**
 * Brotli's settings for a body of `size` bytes. Its window (LGWIN, 4 MB by default) is made no larger
 * than the body: the encoder sets up its ring buffer and hash tables for the window it is given, a large
 * part of the cost of a small body. Quality 6 on the demo's pages (`node --expose-gc
 * bench/kept-bytes.mjs`, CPU per call): the 1.3 KB 404 page about half (619 → 311, 904 → 463 µs); the
 * hotsite and the schedule within the runs' noise. The same bytes out, or a few fewer.
 */
export function brotliParams(quality: number, size: number): Record<number, number> {
  const window = Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size))),
  );
  return {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
    [constants.BROTLI_PARAM_LGWIN]: window,
  };
}
