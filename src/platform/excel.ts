/**
 * Minimal OOXML spreadsheet (.xlsx) writer: one sheet, every cell an inline string; whole in memory
 * (toXlsx, `format=excel`) or streamed (XlsxStream, `format=excel-daemon` reports).
 *
 * Written by hand on top of fflate rather than pulling in a spreadsheet library: exports only
 * need a flat table of text, and the five XML parts below are all Excel and LibreOffice require
 * (no styles, no shared-string table — `t="inlineStr"` keeps each value in its own cell).
 */
import { createDeflateRaw, crc32 } from 'node:zlib';
import { strToU8, Zip, ZipDeflate, zipSync, type AsyncFlateStreamHandler, type ZipInputFile } from 'fflate';
import { toWireValue } from './kernel/wire.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Hard limits of the file format; beyond them Excel refuses or "repairs" (drops) content. */
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;
const MAX_CELL_CHARS = 32_767;
const MAX_SHEET_NAME = 31;

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/**
 * Characters XML 1.0 forbids even when escaped (C0 controls except \t \n \r, U+FFFE/U+FFFF,
 * unpaired surrogates). A single one makes the whole part unparsable, so they are dropped.
 */
/* eslint-disable no-control-regex -- matching control characters is the point */
const INVALID_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

/** Leading characters that make Excel/LibreOffice/Sheets treat text typed or pasted back as a formula. */
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;
// A plain signed number ("-1", "+3.5") cannot run as a formula, so it keeps its value.
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A raw CR would be turned into LF by every XML parser (line-end normalisation); a reference survives.
  '\r': '&#13;',
};

const escapeXml = (s: string): string => s.replace(INVALID_XML_CHARS, '').replace(/[&<>"'\r]/g, (c) => XML_ESCAPES[c]);

/** Cuts to at most `max` UTF-16 units without leaving half of a surrogate pair behind. */
function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** 0 → A, 25 → Z, 26 → AA, … (bijective base 26, as spreadsheets number columns). */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/** One test for "safeCellText has work to do": a character to change, drop or escape, or a leading formula trigger. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_ANY = /^[=+\-@\t\r]|[\u0000-\u001F&<>"'\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Renders any value as the text shown in the cell; `undefined`/`null` yield no cell at all. */
function cellText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  // Nested lists/objects: compact JSON keeps them readable and lossless in a single cell — as the JSON
  // answer has them (wire rows: every value a string, secrets left out).
  if (typeof value === 'object') return JSON.stringify(toWireValue(value));
  return String(value);
}

/** Makes text safe as cell content: valid XML, no formula evaluation, within the cell-size limit. */
function safeCellText(text: string): string {
  // Most cells (ids, names, dates) need nothing: one scan tells, and they are written as they are
  // (a report writes millions of cells; the full path below costs several times more).
  if (text.length <= MAX_CELL_CHARS && !NEEDS_ANY.test(text)) return text;
  // Strip first, so an invisible control char cannot hide a leading `=` from the check below.
  let s = text.replace(INVALID_XML_CHARS, '');
  // A leading quote is the spreadsheet convention for "literal text"; OWASP CSV-injection advice.
  if (FORMULA_TRIGGER.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return escapeXml(truncate(s, MAX_CELL_CHARS));
}

// xml:space="preserve" keeps leading/trailing spaces and newlines that XML would otherwise fold.
const CELL_MID = '" t="inlineStr"><is><t xml:space="preserve">';
const CELL_END = '</t></is></c>';

function cellXml(ref: string, text: string): string {
  return `<c r="${ref}${CELL_MID}${safeCellText(text)}${CELL_END}`;
}

/** A cell's escaped text: cellText then safeCellText, with no work for a number that cannot need any. */
function cellBody(value: unknown): string {
  // Digits, '.', 'e+', 'Infinity', 'NaN': nothing to escape, no formula trigger (a minus sign takes the full path).
  if (typeof value === 'number' && value >= 0) return String(value);
  return safeCellText(cellText(value)!);
}

/** Excel rejects names with []:*?/\, names over 31 chars, empty names and leading/trailing quotes. */
export function sanitizeSheetName(name: string | undefined): string {
  const cleaned = (name ?? '')
    .replace(INVALID_XML_CHARS, '')
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(/^'+|'+$/g, '')
    .trim();
  const short = truncate(cleaned, MAX_SHEET_NAME).trim();
  // "History" is reserved by Excel (change tracking).
  return short === '' || short.toLowerCase() === 'history' ? 'Sheet1' : short;
}

/** Columns of a set of rows: the union of their keys in first-seen order (`into` grows in place). */
export function columnsOf(rows: ReadonlyArray<Record<string, unknown>>, into: string[] = []): string[] {
  const seen = new Set(into);
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        into.push(key);
      }
    }
  }
  return into;
}

function headerXml(columns: readonly string[], letters: readonly string[]): string {
  return columns.length > 0
    ? `<row r="1">${columns.map((key, i) => cellXml(`${letters[i]}1`, key)).join('')}</row>`
    : '';
}

/**
 * Row `rowNum` (2 for the first row under the header): one cell per column the row has a value for.
 * `heads`: each column's `<c r="` and letters (a report writes millions of cells: built once).
 */
function rowXml(
  columns: readonly string[],
  heads: readonly string[],
  row: Record<string, unknown>,
  rowNum: number,
): string {
  const ref = `${rowNum}${CELL_MID}`;
  let xml = `<row r="${rowNum}">`;
  for (let i = 0; i < columns.length; i++) {
    const key = columns[i];
    const value = row[key];
    if (value === undefined || value === null || !Object.hasOwn(row, key)) continue;
    xml += heads[i] + ref + cellBody(value) + CELL_END;
  }
  return `${xml}</row>`;
}

const headsOf = (letters: readonly string[]): string[] => letters.map((l) => `<c r="${l}`);

const SHEET_HEAD = `${XML_DECL}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

function sheetXml(rows: ReadonlyArray<Record<string, unknown>>): string {
  // Columns: union of keys in first-seen order, so sparse rows still line up under one header.
  const columns = columnsOf(rows);
  if (columns.length > MAX_COLUMNS) throw new RangeError(`xlsx: ${columns.length} columns exceed ${MAX_COLUMNS}`);
  if (rows.length + 1 > MAX_ROWS) throw new RangeError(`xlsx: ${rows.length} rows exceed ${MAX_ROWS - 1}`);

  const letters = columns.map((_, i) => columnName(i));
  const heads = headsOf(letters);
  const out: string[] = [headerXml(columns, letters)];
  rows.forEach((row, r) => out.push(rowXml(columns, heads, row, r + 2)));
  return `${SHEET_HEAD}${out.join('')}${SHEET_TAIL}`;
}

/** The four package parts around the sheet, [Content_Types].xml first (some readers sniff the first entry). */
function packageParts(sheetName: string | undefined): Record<string, string> {
  const name = escapeXml(sanitizeSheetName(sheetName));
  return {
    '[Content_Types].xml':
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '</Types>',
    '_rels/.rels':
      `${XML_DECL}<Relationships xmlns="${NS_PKG_REL}">` +
      `<Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/>` +
      '</Relationships>',
    'xl/workbook.xml':
      `${XML_DECL}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
      `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `${XML_DECL}<Relationships xmlns="${NS_PKG_REL}">` +
      `<Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      '</Relationships>',
  };
}

/**
 * Builds a one-sheet workbook: a header row of column names, then one row per input row.
 * Every cell is a string cell; nested arrays/objects become compact JSON text.
 */
export function toXlsx(rows: ReadonlyArray<Record<string, unknown>>, sheetName?: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [path, xml] of Object.entries(packageParts(sheetName))) files[path] = strToU8(xml);
  files['xl/worksheets/sheet1.xml'] = strToU8(sheetXml(rows));
  return zipSync(files);
}

/** Bytes of sheet XML encoded at a time (two such buffers, reused: see ZlibEntry). */
const SLOT_BYTES = 1 << 18;

/**
 * A zip entry deflated by Node's zlib (fflate's own streaming deflate runs about 17 MB/s on sheet XML,
 * zlib's level 1 over 300 MB/s), given to fflate's Zip through its ZipInputFile interface: the entry's
 * crc and size are known at its end, written in the data descriptor that follows it.
 *
 * The XML is encoded into two buffers used in turn: zlib deflates one (in its thread) while the next
 * slice is encoded into the other, and a buffer is written again only once zlib has done with it. So
 * at most two slices wait for zlib (backpressure), and a report does not leave a new buffer per slice
 * for the collector (they lived across pages, and the process grew by hundreds of MB before they went).
 */
class ZlibEntry implements ZipInputFile {
  readonly filename: string;
  readonly compression = 8;
  size = 0;
  crc = 0;
  ondata?: AsyncFlateStreamHandler;
  private readonly z = createDeflateRaw({ level: 1, chunkSize: 1 << 16 });
  private readonly ended: Promise<void>;
  private readonly slots = [Buffer.allocUnsafeSlow(SLOT_BYTES), Buffer.allocUnsafeSlow(SLOT_BYTES)];
  /** Resolves once zlib has deflated what was written from that buffer. */
  private readonly busy: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  private turn = 0;

  constructor(filename: string) {
    this.filename = filename;
    this.z.on('data', (d: Buffer) => this.ondata?.(null, d as Uint8Array<ArrayBuffer>, false));
    this.ended = new Promise((resolve, reject) => {
      this.z.once('end', () => {
        this.ondata?.(null, new Uint8Array(0), true);
        resolve();
      });
      this.z.once('error', reject);
    });
  }

  /** Hands `text` to zlib; resolves once it is encoded and zlib has it (deflated by the time the next write resolves). */
  async write(text: string): Promise<void> {
    const k = this.turn;
    this.turn = 1 - k;
    await this.busy[k];
    const length = Buffer.byteLength(text, 'utf8');
    // The zip has no ZIP64 here: an entry over 4 GB would be unreadable.
    if (this.size + length > 0xffff_ffff) throw new RangeError('xlsx: the sheet exceeds 4 GB');
    if (length > this.slots[k].length) this.slots[k] = Buffer.allocUnsafeSlow(length);
    const bytes = this.slots[k].subarray(0, this.slots[k].write(text, 'utf8'));
    this.size += length;
    this.crc = crc32(bytes as Uint8Array<ArrayBuffer>, this.crc);
    this.busy[k] = new Promise((resolve, reject) => this.z.write(bytes, (err) => (err ? reject(err) : resolve())));
  }

  async end(): Promise<void> {
    await Promise.all(this.busy);
    this.z.end();
    return this.ended;
  }

  terminate(): void {
    this.z.destroy();
  }
}

/**
 * The same workbook as toXlsx, written as it goes (asynchronous reports, src/platform/reports): the
 * columns are known before the first row, rows come in batches, and the zip comes out in pieces
 * through `onData` (fflate's streaming Zip, the sheet deflated by zlib as it is written), so memory
 * holds one batch and the compressor's window, never the whole file. Cells are made by the same code
 * as toXlsx's: the same neutralization of `= + - @`, the same escaping and limits.
 */
/** Rows encoded and handed to zlib at a time. */
const SLICE = 64;

export class XlsxStream {
  private readonly zip: Zip;
  private readonly sheet: ZlibEntry;
  private readonly heads: string[];
  private readonly columns: readonly string[];
  private next = 2;
  /** The batch zlib is deflating (the header first). */
  private pending: Promise<void>;

  constructor(columns: readonly string[], onData: (chunk: Uint8Array) => void, sheetName?: string) {
    this.columns = columns;
    if (columns.length > MAX_COLUMNS) throw new RangeError(`xlsx: ${columns.length} columns exceed ${MAX_COLUMNS}`);
    const letters = columns.map((_, i) => columnName(i));
    this.heads = headsOf(letters);
    this.zip = new Zip((err, chunk) => {
      if (err) throw err;
      onData(chunk);
    });
    for (const [path, xml] of Object.entries(packageParts(sheetName))) {
      const part = new ZipDeflate(path, { level: 6 });
      this.zip.add(part);
      part.push(strToU8(xml), true);
    }
    this.sheet = new ZlibEntry('xl/worksheets/sheet1.xml');
    this.zip.add(this.sheet);
    this.pending = this.sheet.write(SHEET_HEAD + headerXml(columns, letters));
  }

  /** Rows written so far (not counting the header). */
  get rows(): number {
    return this.next - 2;
  }

  /**
   * Adds rows under those already written (only the stream's columns), SLICE rows at a time; resolves
   * once zlib has the last slice (it deflates while the caller reads the next page).
   */
  async write(rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    if (this.next - 1 + rows.length > MAX_ROWS - 1)
      throw new RangeError(`xlsx: ${this.next - 2 + rows.length} rows exceed ${MAX_ROWS - 1}`);
    await this.pending;
    // In slices: a page's XML as one string is a rope of ~15 MB that is flattened to encode it, and
    // slices that die young cost the collector far less.
    for (let at = 0; at < rows.length; at += SLICE) {
      let xml = '';
      const end = Math.min(rows.length, at + SLICE);
      for (let i = at; i < end; i++) xml += rowXml(this.columns, this.heads, rows[i], this.next++);
      await this.sheet.write(xml);
    }
  }

  /** Closes the sheet and the zip; the last pieces have gone out through onData when it resolves. */
  async end(): Promise<void> {
    await this.pending;
    await this.sheet.write(SHEET_TAIL);
    await this.sheet.end();
    this.zip.end();
  }
}
