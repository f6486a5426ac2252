import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { badRequest } from '../errors.ts';

const MAX_ROWS = 10_000;

/**
 * Reads a bulk-import file (the spec's `B path`). Only files inside IMPORT_DIR are readable, so the
 * parameter cannot reach the rest of the server's disk. CSV with a header row, RFC 4180 quoting.
 */
export async function readImport(importDir: string, path: string): Promise<Record<string, string>[]> {
  const root = resolve(importDir);
  const file = resolve(root, path);
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw badRequest('path must name a file inside the import folder');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw badRequest('path does not name a readable import file');
  }
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!header) throw badRequest('path names an empty file');
  if (rows.length > MAX_ROWS) throw badRequest(`path has more than ${MAX_ROWS} rows`);
  return rows
    .filter((r) => r.some((cell) => cell !== ''))
    .map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), r[i] ?? ''])));
}

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[++i];
      else quoted = false;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      endCell();
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endCell();
      rows.push(row);
      row = [];
    } else {
      cell += c;
    }
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}
