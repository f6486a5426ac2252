// Entity tags of pages and files, and the If-None-Match check (RFC 9110 §13.1.2, weak comparison).

import { crc32 } from 'node:zlib';

/**
 * A strong ETag of the bytes a page or file sends: their CRC-32 and length. An ETag only has to change
 * when the bytes change (it guards nothing secret), and CRC-32 is computed at memory speed — hashing
 * every rendered page with SHA-1 cost a measurable part of a render.
 */
export function etagOf(body: string | Uint8Array): string {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return `"${crc32(bytes).toString(36)}-${bytes.length.toString(36)}"`;
}

/** The If-None-Match check, and what a request takes of a cached page: shared with the platform's answers. */
export { notModified, takes } from '../shared/encoding.ts';
