import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { badRequest } from '../errors.ts';

const MAX_ROWS = 10_000;

/**
 * Reads a bulk-import file (the spec's `B path`). Only files inside the folder are readable, so the
 * parameter cannot reach the rest of the server's disk (a symbolic link out of it neither).
 * CSV with a header row, RFC 4180 quoting.
 */
export async function readImport(
  folder: string,
  path: string,
  where = 'the import folder',
): Promise<Record<string, string>[]> {
  const root = resolve(folder);
  const inside = (file: string, top: string) => {
    const rel = relative(top, file);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  const file = resolve(root, path);
  if (!inside(file, root)) throw badRequest(`path must name a file inside ${where}`);
  let text: string;
  try {
    if (!inside(await realpath(file), await realpath(root))) throw new Error('outside');
    text = await readFile(file, 'utf8');
  } catch {
    throw badRequest(`path does not name a readable import file in ${where}`);
  }
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!header) throw badRequest('path names an empty file');
  if (rows.length > MAX_ROWS) throw badRequest(`path has more than ${MAX_ROWS} rows`);
  return rows
    .filter((r) => r.some((cell) => cell !== ''))
    .map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), r[i] ?? ''])));
}

/**
 * An event's import file: in its company's own folder, IMPORT_DIR/<companyID>/. The files of one
 * company (lists of people) are never another's to import: a shared folder let any event admin read
 * them back through their own event.
 */
export async function readEventImport(
  db: Kysely<DB>,
  importDir: string,
  eventID: number,
  path: string,
): Promise<Record<string, string>[]> {
  const { companyID } = await db
    .selectFrom('event')
    .select('companyID')
    .where('eventID', '=', eventID)
    .executeTakeFirstOrThrow();
  return readImport(join(importDir, String(companyID)), path, `the import folder (IMPORT_DIR/${companyID})`);
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
