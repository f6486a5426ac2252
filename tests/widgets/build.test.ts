import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { messages } from '../../src/shared/i18n/messages.ts';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  buildWidgets,
  catalogueSource,
  entryImports,
  LOADERS,
  loaderSource,
  minifyTemplates,
  sharedByTwo,
  widgetSource,
  // @ts-expect-error -- plain ES modules without type declarations
} from '../../widgets/build.mjs';

// What widgets/build.mjs does to our own sources (templates, message keys, the catalogue) and how it
// lays out its output (the loaders, the chunks kept from one build to the next). Lit and the other
// libraries are bundled as published: nothing here touches them.

const root = join(import.meta.dirname, '..', '..');

describe('minifyTemplates', () => {
  it('collapses the whitespace of html`…`, leaving the ${…} expressions as they are', () => {
    const source = [
      'const a = html`',
      '  <div class="x">',
      '    ${cond ? html`<b>  yes  </b>` : "  two  spaces  "}',
      '  </div>`;',
    ].join('\n');
    expect(minifyTemplates(source)).toBe(
      'const a = html` <div class="x"> ${cond ? html`<b> yes </b>` : "  two  spaces  "} </div>`;',
    );
  });

  it('drops the comments and the spaces around punctuation of css`…`', () => {
    const source =
      'const s = css`\n  /* the panel */\n  .panel > p {\n    margin: 0.5em;\n    color: red;\n  }\n  [part="x"] { gap: 0; }\n`;';
    expect(minifyTemplates(source)).toBe('const s = css` .panel>p{margin:.5em;color:red}[part=x]{gap:0}`;');
  });

  it('leaves other templates, and the comments and regular expressions of expressions, alone', () => {
    const source = [
      'const t = `keep   this`;',
      'const h = html`<p>${x.replace(/\\/+/g, "`")}  ${/* a `quote` */ y}</p>`;',
      'const u = `${`  nested  `}`;',
    ].join('\n');
    expect(minifyTemplates(source)).toBe(
      [
        'const t = `keep   this`;',
        'const h = html`<p>${x.replace(/\\/+/g, "`")} ${/* a `quote` */ y}</p>`;',
        'const u = `${`  nested  `}`;',
      ].join('\n'),
    );
  });

  it('stops on a template it cannot read to its end', () => {
    expect(() => minifyTemplates('html`<p>${"x}</p>`')).toThrow(/unterminated/);
  });
});

describe('message keys', () => {
  const ids = new Map([
    ['form.submit', '0'],
    ['schedule.sessions', '1'],
    ['schedule.sessions.one', '1.one'],
  ]);

  it('become their ids, and the module carries the English messages it names', () => {
    const out = widgetSource("t('form.submit'); tp('schedule.sessions', n); t('not.a.key');", ids, messages.en);
    expect(out.split('\n')[0]).toBe("t(0); tp(1, n); t('not.a.key');");
    const own = JSON.parse(/Object\.assign\(podiumMessages\$\.en, (\{.*\})\);/.exec(out)![1]);
    expect(own).toEqual({
      0: messages.en['form.submit'],
      1: messages.en['schedule.sessions'],
      '1.one': messages.en['schedule.sessions.one'],
    });
    expect(out).toContain(`from ${JSON.stringify(join(root, 'src', 'shared', 'i18n', 'messages.ts'))}`);
  });

  it('leave a module that names none as it is', () => {
    expect(widgetSource('export const x = 1;', ids, messages.en)).toBe('export const x = 1;');
  });

  it("leave the catalogue's code and no message in the build", () => {
    const source = readFileSync(join(root, 'src', 'shared', 'i18n', 'messages.ts'), 'utf8');
    const built = catalogueSource(source);
    expect(built).toContain('export function t(');
    expect(built).toContain('const pt = {} as Messages;');
    expect(built).not.toContain(`'${messages.en['form.submit']}'`);
    expect(built.length).toBeLessThan(source.length / 4);
  });
});

describe('loaderSource', () => {
  const outdir = join(root, 'public', 'widgets');
  const at = (name: string) => relative(root, join(outdir, 'chunks', name));
  const outputs = {
    [at('registration-AAAAAAAA.js')]: {
      imports: [
        { path: at('chunk-BBBBBBBB.js'), kind: 'import-statement' },
        { path: at('pt-CCCCCCCC.js'), kind: 'dynamic-import' },
      ],
    },
    [at('chunk-BBBBBBBB.js')]: { imports: [{ path: at('chunk-DDDDDDDD.js'), kind: 'import-statement' }] },
    [at('chunk-DDDDDDDD.js')]: { imports: [] },
    [at('pt-CCCCCCCC.js')]: { imports: [] },
  };

  it("imports every chunk the entry needs at once, relative to the loader's own URL, the locales left to load later", () => {
    expect(loaderSource(outputs, [at('registration-AAAAAAAA.js')], outdir)).toBe(
      [
        'import "./chunks/chunk-BBBBBBBB.js";',
        'import "./chunks/chunk-DDDDDDDD.js";',
        'export * from "./chunks/registration-AAAAAAAA.js";',
        '',
      ].join('\n'),
    );
  });

  it('has podium.js export every widget', () => {
    expect(LOADERS.podium).toEqual(['registration', 'agenda', 'access-gate']);
  });
});

describe('sharedByTwo', () => {
  // A metafile's outputs as esbuild writes them for the three widgets (paths relative to the root).
  const out = (name: string) => `public/widgets/chunks/${name}.js`;
  const chunk = (inputs: Record<string, number>, imports: [string, string][] = []) => ({
    inputs: Object.fromEntries(Object.entries(inputs).map(([path, bytes]) => [path, { bytesInOutput: bytes }])),
    imports: imports.map(([path, kind]) => ({ path: out(path), kind })),
  });
  const outputs = {
    [out('registration-A')]: {
      entryPoint: 'widgets/src/registration.ts',
      ...chunk({}, [
        ['all-L', 'import-statement'],
        ['two-R', 'import-statement'],
        ['pt-P', 'dynamic-import'],
      ]),
    },
    [out('agenda-A')]: {
      entryPoint: 'widgets/src/agenda.ts',
      ...chunk({}, [
        ['all-L', 'import-statement'],
        ['two-R', 'import-statement'],
        ['agenda-T', 'import-statement'],
      ]),
    },
    [out('access-gate-A')]: { entryPoint: 'widgets/src/access-gate.ts', ...chunk({}, [['all-L', 'import-statement']]) },
    [out('all-L')]: chunk({ 'node_modules/lit-html/lit-html.js': 7000 }),
    [out('two-R')]: chunk({ 'widgets/src/stores/read.ts': 500, 'widgets/src/internal/types.ts': 0 }),
    // The agenda's and its calendar's (a dynamic import): one widget's, so it stays.
    [out('agenda-T')]: chunk({ 'src/shared/schedule/time.ts': 2000 }),
    [out('pt-P')]: { entryPoint: 'widgets/src/locales/pt.ts', ...chunk({ 'widgets/src/locales/pt.ts': 2000 }) },
  };

  it('finds the modules of the chunks two widgets import and the third does not, with code in them', () => {
    expect(sharedByTwo(outputs)).toEqual(['widgets/src/stores/read.ts']);
  });

  it('are imported by every entry, by absolute path', () => {
    expect(entryImports(['widgets/src/stores/read.ts'])).toBe(
      `\nimport ${JSON.stringify(join(root, 'widgets/src/stores/read.ts'))};`,
    );
  });
});

describe('buildWidgets', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'podium-widgets-build-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the chunks of the build before (pages may hold its loader), not older ones nor another layout's files", async () => {
    mkdirSync(join(dir, 'chunks'));
    for (const f of ['chunks/previous-AAAAAAAA.js', 'chunks/older-BBBBBBBB.js', 'chunks/older-BBBBBBBB.js.br'])
      writeFileSync(join(dir, f), '');
    writeFileSync(join(dir, 'podium-locale-pt.js'), '');
    writeFileSync(join(dir, 'custom-elements.json'), '{}');
    writeFileSync(join(dir, '.chunks.json'), JSON.stringify(['previous-AAAAAAAA.js']));
    await buildWidgets(dir);
    const chunks = readdirSync(join(dir, 'chunks'));
    expect(chunks).toContain('previous-AAAAAAAA.js');
    expect(chunks.filter((f) => f.startsWith('older-'))).toEqual([]);
    expect(existsSync(join(dir, 'podium-locale-pt.js'))).toBe(false);
    expect(existsSync(join(dir, 'custom-elements.json'))).toBe(true);
    const built: string[] = JSON.parse(readFileSync(join(dir, '.chunks.json'), 'utf8'));
    expect(built).not.toContain('previous-AAAAAAAA.js');
    for (const f of built) expect(chunks).toContain(f);

    // The next build keeps this one's chunks and drops the one before.
    await buildWidgets(dir);
    expect(readdirSync(join(dir, 'chunks'))).not.toContain('previous-AAAAAAAA.js');
    for (const f of built) expect(readdirSync(join(dir, 'chunks'))).toContain(f);
  }, 180_000);

  it('has no chunk that only two widgets import: what two share is in the chunk all three share', () => {
    const chunks = new Map<string, number>();
    for (const loader of ['podium-registration.js', 'podium-agenda.js', 'podium-access-gate.js'])
      for (const [, chunk] of readFileSync(join(dir, loader), 'utf8').matchAll(/"\.\/chunks\/(chunk-\w+\.js)"/g))
        chunks.set(chunk, (chunks.get(chunk) ?? 0) + 1);
    expect([...chunks.values()].filter((n) => n === 2)).toEqual([]);
    expect([...chunks.values()]).toContain(3);
  });

  it('writes a .br and a .gz beside every script, the loaders included', () => {
    const scripts = [
      ...readdirSync(dir).filter((f) => f.endsWith('.js')),
      ...readdirSync(join(dir, 'chunks'))
        .filter((f) => f.endsWith('.js') && !f.startsWith('previous-'))
        .map((f) => `chunks/${f}`),
    ];
    expect(scripts).toEqual(expect.arrayContaining(Object.keys(LOADERS).map((l) => `${l}.js`)));
    for (const f of scripts) {
      expect(existsSync(join(dir, `${f}.br`)), f).toBe(true);
      const body = readFileSync(join(dir, f));
      const gz = readFileSync(join(dir, `${f}.gz`));
      expect(gunzipSync(gz).equals(body), f).toBe(true);
      // Zopfli's gzip (src/site/precompress.ts), smaller than zlib's best on any chunk of some size.
      if (body.length > 2048) expect(gz.length, f).toBeLessThan(gzipSync(body, { level: 9 }).length);
    }
  });
});
