#!/usr/bin/env node
// Builds the embeddable widgets into public/widgets/ (git-ignored; the site serves it at /widgets/):
// podium.js (every widget) and one file per widget, each a self-contained, minified ES module (Lit
// included) that a page loads with one <script type="module" src="…/podium.js"></script>; plus
// podium-locale-pt.js and podium-locale-es.js, loaded by a widget when it first speaks that language.
//
//   node widgets/build.mjs            build once
//   node widgets/build.mjs --watch    rebuild on change
//   node widgets/build.mjs --outdir=DIR
//
// Build-time steps, none a second source of truth:
// - the shared message catalogue (src/shared/i18n/messages.ts: every site and widget message in three
//   languages) becomes, in each bundle, the English messages that bundle's sources name; the other
//   languages go to the locale files;
// - html`…` and css`…` templates lose their indentation (and CSS its comments);
// - Lit's Trusted Types policy is shared by every Podium bundle on a page (see litPolicyPlugin).

import { build, context } from 'esbuild';
import { readFile, readdir, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
export const OUTDIR = join(root, 'public', 'widgets');

/** Output name → entry module. */
export const ENTRIES = {
  podium: 'widgets/src/index.ts',
  'podium-registration': 'widgets/src/registration.ts',
  'podium-agenda': 'widgets/src/agenda.ts',
  'podium-access-gate': 'widgets/src/access-gate.ts',
};

const MESSAGES = join(root, 'src', 'shared', 'i18n', 'messages.ts');

async function sourcesOf(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourcesOf(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/**
 * The catalogue keys that `files` spell out (as 'key' literals), with their `.one` plurals; by default
 * those of every widget source.
 */
export async function widgetMessageKeys(files) {
  const { messages } = await import(pathToFileURL(MESSAGES).href);
  const known = new Set(Object.keys(messages.en));
  const used = new Set();
  for (const file of files ?? (await sourcesOf(join(here, 'src')))) {
    for (const [, key] of (await readFile(file, 'utf8')).matchAll(/'([a-zA-Z]+\.[\w.]+)'/g)) {
      if (known.has(key)) used.add(key);
      if (known.has(`${key}.one`)) used.add(`${key}.one`);
    }
  }
  return used;
}

const ENTRY_LINE = /^[ \t]*'([\w.]+)':[ \t\n]*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"),[ \t]*(?:\/\/[^\n]*)?\n/gm;
const OTHER_LOCALES = /const (pt|es)(?:: Messages)? = \{[\s\S]*?\n\};/g;

/**
 * The catalogue's source for a bundle: English with only the entries `keys` names; Portuguese and
 * Spanish empty (they are the podium-locale-*.js files, loaded when a widget speaks them).
 */
function messagesPlugin(keys) {
  return {
    name: 'podium-widget-messages',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]shared[\\/]i18n[\\/]messages\.ts$/ }, async (args) => {
        const keep = await (keys ?? widgetMessageKeys());
        const source = (await readFile(args.path, 'utf8')).replace(OTHER_LOCALES, 'const $1 = {} as Messages;');
        return { contents: source.replace(ENTRY_LINE, (line, key) => (keep.has(key) ? line : '')), loader: 'ts' };
      });
    },
  };
}

/** podium-locale-<locale>.js: every message the widgets use, in that language. */
async function writeLocales(outdir) {
  const { messages, LOCALES } = await import(pathToFileURL(MESSAGES).href);
  const keys = [...(await widgetMessageKeys())].sort();
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const subset = Object.fromEntries(keys.map((k) => [k, messages[locale][k]]));
    await writeFile(join(outdir, `podium-locale-${locale}.js`), `export default ${JSON.stringify(subset)};\n`);
  }
}

/**
 * The text parts of every html`…` and css`…` template in `source`, with whitespace runs collapsed to
 * one space (what a browser renders anyway), CSS also without comments and spaces around punctuation.
 * `${…}` expressions are skipped (strings and nested templates included), so only literal markup changes.
 */
export function minifyTemplates(source) {
  let out = '';
  let i = 0;
  const tag = /\b(html|css)`/g;
  const text = (kind, raw) => {
    if (kind === 'plain') return raw;
    const collapsed = raw.replace(/\s+/g, ' ');
    if (kind !== 'css') return collapsed;
    return collapsed
      .replace(/\/\*.*?\*\//g, '')
      .replace(/ ?([{};,>]) ?/g, '$1')
      .replace(/: /g, ':')
      .replace(/\b0\.(\d)/g, '.$1')
      .replace(/;}/g, '}');
  };
  // Copies one template starting after its opening backtick; answers the index after its closing one.
  const template = (kind, from) => {
    let j = from;
    let chunk = '';
    while (j < source.length) {
      const c = source[j];
      if (c === '\\') {
        chunk += source.slice(j, j + 2);
        j += 2;
      } else if (c === '`') {
        out += text(kind, chunk) + '`';
        return j + 1;
      } else if (c === '$' && source[j + 1] === '{') {
        out += text(kind, chunk) + '${';
        chunk = '';
        j = expression(j + 2);
      } else {
        chunk += c;
        j++;
      }
    }
    throw new Error('unterminated template');
  };
  // Copies a ${…} expression (nested templates minified too); answers the index after its closing brace.
  const expression = (from) => {
    let j = from;
    let depth = 0;
    while (j < source.length) {
      const c = source[j];
      if (c === "'" || c === '"') {
        let k = j + 1;
        while (source[k] !== c) k += source[k] === '\\' ? 2 : 1;
        out += source.slice(j, k + 1);
        j = k + 1;
      } else if (c === '`') {
        const m = /\b(html|css)$/.exec(source.slice(Math.max(0, j - 4), j));
        out += '`';
        j = template(m ? m[1] : 'plain', j + 1);
      } else if (c === '{') {
        depth++;
        out += c;
        j++;
      } else if (c === '}') {
        out += c;
        j++;
        if (depth-- === 0) return j;
      } else {
        out += c;
        j++;
      }
    }
    throw new Error('unterminated expression');
  };
  for (let m; (m = tag.exec(source));) {
    out += source.slice(i, m.index + m[0].length);
    i = tag.lastIndex = template(m[1], m.index + m[0].length);
  }
  return out + source.slice(i);
}

function templatesPlugin() {
  return {
    name: 'podium-widget-templates',
    setup(b) {
      b.onLoad({ filter: /[\\/]widgets[\\/]src[\\/].*\.ts$/ }, async (args) => ({
        contents: minifyTemplates(await readFile(args.path, 'utf8')),
        loader: 'ts',
      }));
    },
  };
}

const LIT_POLICY = 's.createPolicy("lit-html",{createHTML:t=>t})';

/**
 * Every Podium bundle on a page shares one Trusted Types policy: Lit creates its 'lit-html' policy when
 * it loads, and a second bundle (podium.js and podium-agenda.js on one page) creating it again is a
 * violation of `trusted-types lit-html` (without 'allow-duplicates') that stops that bundle. The policy
 * is kept in the page-wide registry (src/internal/registry.ts) and reused.
 */
function litPolicyPlugin() {
  return {
    name: 'podium-lit-policy',
    setup(b) {
      b.onLoad({ filter: /[\\/]lit-html[\\/]lit-html\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(LIT_POLICY)) throw new Error(`lit-html changed: ${LIT_POLICY} not found`);
        return {
          contents: source.replace(LIT_POLICY, `(t[Symbol.for("podium.widgets")]??={}).litPolicy??=${LIT_POLICY}`),
          loader: 'js',
        };
      });
    },
  };
}

export function buildOptions(outdir = OUTDIR) {
  return {
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, input]) => ({ in: input, out })),
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [messagesPlugin(), templatesPlugin(), litPolicyPlugin()],
  };
}

/**
 * Builds every entry into `outdir`, each with only the messages its own modules use (a first pass
 * lists them); answers the outputs' sizes by file.
 */
export async function buildWidgets(outdir = OUTDIR) {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  // Build output, not source: the folder keeps only this .gitignore in git.
  await writeFile(join(outdir, '.gitignore'), '*\n');
  const outputs = {};
  await writeLocales(outdir);
  await Promise.all(
    buildOptions(outdir).entryPoints.map(async (entry) => {
      const options = { ...buildOptions(outdir), entryPoints: [entry] };
      const probe = await build({ ...options, write: false, minify: false, plugins: [templatesPlugin()] });
      const files = Object.keys(probe.metafile.inputs)
        .filter((f) => f.startsWith('widgets/src/'))
        .map((f) => join(root, f));
      const keys = await widgetMessageKeys(files);
      const result = await build({ ...options, plugins: [messagesPlugin(keys), templatesPlugin(), litPolicyPlugin()] });
      Object.assign(outputs, result.metafile.outputs);
    }),
  );
  return outputs;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice(9) ?? OUTDIR;
  if (process.argv.includes('--watch')) {
    await mkdir(outdir, { recursive: true });
    await writeLocales(outdir);
    const ctx = await context({ ...buildOptions(outdir), logLevel: 'info' });
    await ctx.watch();
    console.log(`watching widgets → ${relative(process.cwd(), outdir) || '.'}`);
  } else {
    const outputs = await buildWidgets(outdir);
    for (const [file, out] of Object.entries(outputs))
      console.log(`${relative(process.cwd(), file)}  ${(out.bytes / 1024).toFixed(1)} KB`);
  }
}
