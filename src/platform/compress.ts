import { brotliCompress, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { brotliParams } from '../net/brotli.ts';
import type { Answer } from './kernel/dispatch.ts';
import { COMPRESS_MIN_BYTES } from './kernel/cache.ts';
import type { Encoding } from './kernel/encoding.ts';

// Compression of answers made for one caller (issue 11, item 5): cached public answers carry their
// variants already (kernel/cache.ts); these are made per answer, so at a quality that costs little CPU.

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text answers long enough to gain, not yet encoded (a spreadsheet is a zip already). */
export function compressible(a: Answer): boolean {
  if (a.headers?.['content-encoding'] !== undefined || a.status === 304) return false;
  if (!a.type.startsWith('application/json') && !a.type.startsWith('text/')) return false;
  const length = typeof a.body === 'string' ? a.body.length : a.body.byteLength;
  return length >= COMPRESS_MIN_BYTES;
}

export function compress(encoding: Encoding, body: string | Uint8Array): Promise<Buffer> {
  // (the window fitted to the answer, as for cached answers and the site's pages: src/net/brotli.ts)
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  return encoding === 'br' ? brotliAsync(body, { params: brotliParams(4, size) }) : gzipAsync(body, { level: 5 });
}
