import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  XLSX_CONTENT_TYPE,
  XlsxStream,
  columnName,
  columnsOf,
  sanitizeSheetName,
  toXlsx,
} from '../../src/platform/excel.ts';

const REQUIRED_PARTS = [
  '[Content_Types].xml',
  '_rels/.rels',
  'xl/workbook.xml',
  'xl/_rels/workbook.xml.rels',
  'xl/worksheets/sheet1.xml',
];

function unpack(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, data] of Object.entries(unzipSync(bytes))) out[path] = strFromU8(data);
  return out;
}

const unescapeXml = (s: string): string =>
  s.replace(/&(lt|gt|quot|apos|#(\d+)|amp);/g, (_, name: string, code: string | undefined) => {
    if (code !== undefined) return String.fromCharCode(Number(code));
    return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name];
  });

/** Cell reference → decoded text, read straight from the sheet XML the way a spreadsheet would. */
function cells(bytes: Uint8Array): Map<string, string> {
  const xml = unpack(bytes)['xl/worksheets/sheet1.xml'];
  const map = new Map<string, string>();
  const cell = /<c r="([A-Z]+\d+)" t="inlineStr"><is><t xml:space="preserve">([^<]*)<\/t><\/is><\/c>/g;
  for (const m of xml.matchAll(cell)) map.set(m[1], unescapeXml(m[2]));
  return map;
}

describe('toXlsx', () => {
  it('exports the content type', () => {
    expect(XLSX_CONTENT_TYPE).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('writes every required package part, wired together', () => {
    const parts = unpack(toXlsx([{ a: 'x' }]));
    for (const p of REQUIRED_PARTS) expect(parts[p], p).toBeTypeOf('string');
    expect(parts['[Content_Types].xml']).toContain('PartName="/xl/worksheets/sheet1.xml"');
    expect(parts['[Content_Types].xml']).toContain('PartName="/xl/workbook.xml"');
    expect(parts['_rels/.rels']).toContain('Target="xl/workbook.xml"');
    expect(parts['xl/_rels/workbook.xml.rels']).toContain('Target="worksheets/sheet1.xml"');
    expect(parts['xl/workbook.xml']).toMatch(/<sheet name="Sheet1" sheetId="1" r:id="rId1"\/>/);
  });

  it('puts the header and values in the right cells, including columns past Z', () => {
    const wide: Record<string, string> = {};
    for (let i = 0; i < 30; i++) wide[`k${i}`] = `v${i}`;
    const c = cells(toXlsx([wide, { k0: 'second', k29: 'last' }]));

    expect(c.get('A1')).toBe('k0');
    expect(c.get('Z1')).toBe('k25');
    expect(c.get('AA1')).toBe('k26');
    expect(c.get('AD1')).toBe('k29');
    expect(c.get('A2')).toBe('v0');
    expect(c.get('Z2')).toBe('v25');
    expect(c.get('AA2')).toBe('v26');
    expect(c.get('AD2')).toBe('v29');
    // A sparse row leaves gaps instead of shifting values left.
    expect(c.get('A3')).toBe('second');
    expect(c.get('B3')).toBeUndefined();
    expect(c.get('AD3')).toBe('last');
    expect(c.size).toBe(30 + 30 + 2);
  });

  it('takes the union of keys in first-seen order as columns', () => {
    const c = cells(toXlsx([{ a: '1' }, { b: '2', a: '3' }]));
    expect([c.get('A1'), c.get('B1')]).toEqual(['a', 'b']);
    expect([c.get('A2'), c.get('B2'), c.get('A3'), c.get('B3')]).toEqual(['1', undefined, '3', '2']);
  });

  it('numbers columns like a spreadsheet', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702, 16383].map(columnName)).toEqual([
      'A',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
  });

  it('neutralizes formula injection in values and headers', () => {
    const c = cells(
      toXlsx([{ f: '=1+1', plus: '+x', minus: '-x', at: '@x', tab: '\tx', cr: '\rx', ok: 'a=b', '=HEADER()': 'h' }]),
    );
    expect(c.get('A2')).toBe("'=1+1");
    expect(c.get('B2')).toBe("'+x");
    expect(c.get('C2')).toBe("'-x");
    expect(c.get('D2')).toBe("'@x");
    expect(c.get('E2')).toBe("'\tx");
    expect(c.get('F2')).toBe("'\rx");
    expect(c.get('G2')).toBe('a=b');
    expect(c.get('H1')).toBe("'=HEADER()");
    // Plain signed numbers are values, not formulas: left as they are; a formula behind a sign is not.
    const n = cells(toXlsx([{ a: '-1', b: '+3.5', c: '-1+cmd|x', d: '-2e3' }]));
    expect([n.get('A2'), n.get('B2'), n.get('C2'), n.get('D2')]).toEqual(['-1', '+3.5', "'-1+cmd|x", "'-2e3"]);
    // No cell is ever written as a formula or a typed (number/bool) cell.
    const xml = unpack(toXlsx([{ f: '=1+1', n: 5 }]))['xl/worksheets/sheet1.xml'];
    expect(xml).not.toContain('<f>');
    expect(xml.match(/<c /g)?.length).toBe(xml.match(/t="inlineStr"/g)?.length);
  });

  it('catches a formula hidden behind a stripped control char', () => {
    expect(cells(toXlsx([{ a: '\u0000=cmd' }])).get('A2')).toBe("'=cmd");
  });

  it('escapes XML metacharacters', () => {
    const xml = unpack(toXlsx([{ a: '<&>"\'' }]))['xl/worksheets/sheet1.xml'];
    expect(xml).toContain('&lt;&amp;&gt;&quot;&apos;');
    expect(xml).not.toContain('<&>');
    expect(cells(toXlsx([{ a: '<&>' }])).get('A2')).toBe('<&>');
  });

  it('strips characters invalid in XML 1.0 but keeps tab and newlines', () => {
    const bytes = toXlsx([{ a: 'be\u0007ll\u0000', b: 'x\ty\nz', c: 'lone\uD800' }]);
    const xml = unpack(bytes)['xl/worksheets/sheet1.xml'];
    // eslint-disable-next-line no-control-regex -- asserting no control character survives
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const c = cells(bytes);
    expect(c.get('A2')).toBe('bell');
    expect(c.get('B2')).toBe('x\ty\nz');
    expect(c.get('C2')).toBe('lone');
  });

  it('writes nested arrays and objects as compact JSON text, as the JSON answer has them (strings)', () => {
    const c = cells(toXlsx([{ tags: [{ id: 1, name: 'a&b' }, { id: 2 }], obj: { k: 'x', on: true }, n: 3, nil: null }])); // prettier-ignore
    expect(c.get('A2')).toBe('[{"id":"1","name":"a&b"},{"id":"2"}]');
    expect(c.get('B2')).toBe('[{"k":"x","on":"1"}]');
    expect(c.get('C2')).toBe('3');
    expect(c.get('D1')).toBe('nil');
    expect(c.get('D2')).toBeUndefined();
  });

  it('sanitizes the sheet name', () => {
    expect(sanitizeSheetName('a[b]:c*d?e/f\\g')).toBe('a b  c d e f g');
    expect(sanitizeSheetName('x'.repeat(40))).toHaveLength(31);
    expect(sanitizeSheetName('')).toBe('Sheet1');
    expect(sanitizeSheetName("'quoted'")).toBe('quoted');
    const wb = unpack(toXlsx([], 'Q&A <2025>/final'))['xl/workbook.xml'];
    expect(wb).toContain('<sheet name="Q&amp;A &lt;2025&gt; final" ');
  });

  it('produces a valid empty workbook for no rows', () => {
    const parts = unpack(toXlsx([]));
    expect(parts['xl/worksheets/sheet1.xml']).toContain('<sheetData></sheetData>');
  });
});

/** First of the given executables found on PATH, if any (nothing is installed for this). */
function findTool(names: string[]): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const converter = findTool(['ssconvert', 'libreoffice', 'soffice']);

describe('XlsxStream', () => {
  // The rows of a report go through fast paths (numbers, cells with nothing to escape, reused buffers):
  // the sheet must be byte for byte the one toXlsx writes for the same rows.
  const tricky: Record<string, unknown>[] = [
    { id: 1, name: 'Plain', n: 0, neg: -3, big: 1e21, frac: 2.5, nan: NaN, inf: -Infinity, none: null },
    {
      id: 2,
      name: '=1+1',
      n: 7,
      neg: '-7',
      big: '+1+2',
      frac: '@SUM(A1)',
      nan: '\t=x',
      inf: 'a<b>&"c\'',
      tags: [{ a: 1 }],
    },
    { name: ' lead and trail ', other: 'line\r\nbreak\u0001', n: undefined, id: 3, deep: { x: '=y' } },
    { id: 4, name: 'é 漢字 😀', n: Infinity, neg: -0, long: 'x'.repeat(40_000) },
  ];
  const rows = Array.from({ length: 300 }, (_, i) => ({ ...tricky[i % tricky.length], id: i }));

  it('writes the same sheet as toXlsx, across slices and pages', async () => {
    const chunks: Uint8Array[] = [];
    const columns = columnsOf(rows);
    const stream = new XlsxStream(columns, (c) => chunks.push(c.slice()), 'Sheet');
    for (let at = 0; at < rows.length; at += 70) await stream.write(rows.slice(at, at + 70));
    await stream.end();
    const file = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (file.set(c, at), at + c.length), 0);
    const sheet = unpack(file)['xl/worksheets/sheet1.xml'];
    expect(sheet).toBe(unpack(toXlsx(rows, 'Sheet'))['xl/worksheets/sheet1.xml']);
    expect(stream.rows).toBe(rows.length);
    const c = cells(file);
    expect(c.get('B3')).toBe("'=1+1");
    expect(c.get('D2')).toBe('-3');
    expect(c.get('H2')).toBe("'-Infinity");
  });
});

describe('toXlsx in a real spreadsheet program', () => {
  it.skipIf(!converter)('converts to CSV with the expected content', { timeout: 120_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'xlsx-test-'));
    try {
      const input = join(dir, 'export.xlsx');
      writeFileSync(input, toXlsx([{ name: 'Ada', formula: '=1+1', tags: ['a', 'b'], esc: '<&>' }], 'People'));
      let csvPath: string;
      if (converter!.endsWith('ssconvert')) {
        csvPath = join(dir, 'export.csv');
        execFileSync(converter!, [input, csvPath], { stdio: 'ignore' });
      } else {
        // A private profile dir so a running office instance or a locked profile can't interfere.
        const profile = `file://${join(dir, 'profile')}`;
        execFileSync(
          converter!,
          [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'csv', '--outdir', dir, input],
          { stdio: 'ignore' },
        );
        csvPath = join(
          dir,
          readdirSync(dir).find((f) => f.endsWith('.csv'))!,
        );
      }
      const csv = readFileSync(csvPath, 'utf8');
      expect(csv).toContain('name');
      expect(csv).toContain('Ada');
      expect(csv).toContain('<&>');
      expect(csv).toContain('=1+1'); // kept as text, not evaluated to 2
      expect(csv).not.toMatch(/(^|,)2(,|$)/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
