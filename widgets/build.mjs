#!/usr/bin/env node
// Builds the embeddable widgets into public/widgets/ (git-ignored; the site serves it at /widgets/):
//
//   podium.js, podium-registration.js,     the loaders: stable URLs, a few hundred bytes each, that a page
//   podium-agenda.js, podium-access-gate.js  loads with <script type="module" src="…/podium.js"></script>;
//                                          each only imports the chunks its widgets need
//   chunks/<name>-<hash>.js                the code (Lit, the widgets, their messages), ES modules named by
//                                          their content, shared by every loader: Lit and each widget are
//                                          downloaded once per page (and per release) however many loaders
//                                          a page has; Portuguese and Spanish are chunks a widget loads
//                                          the first time it speaks them
//
// Every .js gets a .br and a .gz beside it (src/site/precompress.ts). The site serves the loaders with a
// short max-age and the chunks as immutable (src/site/server.ts); chunk imports are relative, so they
// resolve against the loader's own URL on whatever page embeds it.
//
//   node widgets/build.mjs            build once
//   node widgets/build.mjs --watch    rebuild on change
//   node widgets/build.mjs --outdir=DIR
//
// Lit and the other libraries are bundled as they are published; every chunk, theirs included, is
// minified by esbuild and then by terser (see terserPlugin), and what two widgets share goes to the chunk
// all three share (see sharedByTwo). Our own sources go through two build-time steps, none a second
// source of truth:
// - html`…` and css`…` templates lose their indentation (and CSS its comments): see minifyTemplates;
// - message keys ('form.submit') become short numbers (see messageIds), and each module carries the
//   English messages it names (see templatesPlugin), so a page gets only the messages of the widgets it
//   loads; the shared catalogue (src/shared/i18n/messages.ts) keeps no messages of its own in the build,
//   and the other languages are the locale chunks (see localesPlugin).

import { build, context } from 'esbuild';
import { minify } from 'terser';
import { readFile, readdir, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
export const OUTDIR = join(root, 'public', 'widgets');
/** Where the content-hashed files go, under the output folder. */
export const CHUNKS = 'chunks';

/**
 * Entry name → module: each is built into chunks/<name>-<hash>.js with the code that only it needs (the
 * code two entries share goes to chunks of its own).
 */
export const ENTRIES = {
  registration: 'widgets/src/registration.ts',
  agenda: 'widgets/src/agenda.ts',
  'access-gate': 'widgets/src/access-gate.ts',
};

/** Loader (public/widgets/<name>.js, a stable URL) → the entries it exports. */
export const LOADERS = {
  podium: ['registration', 'agenda', 'access-gate'],
  'podium-registration': ['registration'],
  'podium-agenda': ['agenda'],
  'podium-access-gate': ['access-gate'],
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

/** A message key as a widget source spells it. */
const MESSAGE_KEY = /'([a-zA-Z]+\.[\w.]+)'/g;

/** The catalogue (src/shared/i18n/messages.ts). */
const catalogue = () => import(pathToFileURL(MESSAGES).href);

/** The catalogue keys that `source` spells out (as 'key' literals), with their `.one` plurals. */
export function messageKeysOf(source, known) {
  const used = new Set();
  for (const [, key] of source.matchAll(MESSAGE_KEY)) {
    if (known.has(key)) used.add(key);
    if (known.has(`${key}.one`)) used.add(`${key}.one`);
  }
  return used;
}

/** The catalogue keys that the widget sources spell out. */
export async function widgetMessageKeys() {
  const known = new Set(Object.keys((await catalogue()).messages.en));
  const used = new Set();
  for (const file of await sourcesOf(join(here, 'src')))
    for (const key of messageKeysOf(await readFile(file, 'utf8'), known)) used.add(key);
  return used;
}

/**
 * Message keys as the built widgets spell them: a number each, the key's place among the keys the
 * widget sources use (sorted), so every chunk agrees; the singular of a counted message is `<number>.one`.
 * Sources keep the readable keys ('form.submit'); the build swaps their literals (a widget never builds
 * a key at run time: `widgetMessageKeys` could not find it either).
 */
export async function messageIds() {
  const keys = [...(await widgetMessageKeys())];
  const base = (k) => k.replace(/\.one$/, '');
  const ids = new Map([...new Set(keys.map(base))].sort().map((k, i) => [k, String(i)]));
  for (const k of keys) if (k !== base(k)) ids.set(k, `${ids.get(base(k))}.one`);
  return ids;
}

/** A plugin's message ids, worked out once per build. */
function idsOf(b) {
  let pending;
  b.onStart(() => void (pending = undefined));
  return () => (pending ??= messageIds());
}

const ENTRY_LINE = /^[ \t]*'([\w.]+)':[ \t\n]*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"),[ \t]*(?:\/\/[^\n]*)?\n/gm;
const OTHER_LOCALES = /const (pt|es)(?:: Messages)? = \{[\s\S]*?\n\};/g;

/**
 * The catalogue's source in the build: no messages at all. The English ones come with the modules that
 * name them (see templatesPlugin), Portuguese and Spanish with the locale chunks (see localesPlugin).
 */
export function catalogueSource(source) {
  return source.replace(OTHER_LOCALES, 'const $1 = {} as Messages;').replace(ENTRY_LINE, '');
}

/**
 * The text parts of every html`…` and css`…` template in `source`, with whitespace runs collapsed to
 * one space (what a browser renders anyway), CSS also without comments and spaces around punctuation.
 * `${…}` expressions are skipped (strings and nested templates included), so only literal markup changes.
 * Outside templates the tags are found by their spelling: a string or comment there must not hold one.
 */
export function minifyTemplates(source) {
  let out = '';
  let i = 0;
  const tag = /\b(html|css)`/g;
  const text = (kind, raw) => {
    if (kind === 'plain') return raw;
    if (kind !== 'css') return raw.replace(/\s+/g, ' ');
    return raw
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/ ?([{};,>]) ?/g, '$1')
      .replace(/: /g, ':')
      .replace(/\b0\.(\d)/g, '.$1')
      .replace(/;}/g, '}')
      .replace(/\[([\w-]+)=(['"])(-?[a-zA-Z_][\w-]*)\2\]/g, '[$1=$3]');
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
        while (source[k] !== c) {
          if (k >= source.length || source[k] === '\n') throw new Error(`unterminated string at ${j}`);
          k += source[k] === '\\' ? 2 : 1;
        }
        out += source.slice(j, k + 1);
        j = k + 1;
      } else if (c === '\\') {
        // An escape in a regular expression (\/ included).
        out += source.slice(j, j + 2);
        j += 2;
      } else if (c === '/' && (source[j + 1] === '/' || source[j + 1] === '*')) {
        // A comment (its words may hold a quote).
        const end = source[j + 1] === '/' ? source.indexOf('\n', j) : source.indexOf('*/', j) + 2;
        out += source.slice(j, end);
        j = end;
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

/**
 * A widget source as the build compiles it: templates minified (see minifyTemplates), message keys as
 * their ids, and, when it names any, the English messages it names, added to the catalogue when the
 * module runs (`en`: the catalogue's English messages).
 */
export function widgetSource(source, ids, en) {
  const named = messageKeysOf(source, ids);
  let contents = minifyTemplates(source).replace(MESSAGE_KEY, (literal, key) =>
    ids.has(key) ? (key.endsWith('.one') ? `'${ids.get(key)}'` : ids.get(key)) : literal,
  );
  if (named.size > 0) {
    const own = Object.fromEntries([...named].map((k) => [ids.get(k), en[k]]));
    // A chunk loaded by import() that says `podium:messages-via-host` gets its English messages as a
    // constant it reads itself: an import of the catalogue here would split the catalogue out of the
    // chunk every widget shares (a file more for every page).
    if (source.includes('podium:messages-via-host'))
      contents += `\nconst podiumOwnMessages$ = ${JSON.stringify(own)};\n`;
    else {
      contents += `\nimport { messages as podiumMessages$ } from ${JSON.stringify(MESSAGES)};`;
      contents += `\nObject.assign(podiumMessages$.en, ${JSON.stringify(own)});\n`;
    }
  }
  return contents;
}

/**
 * The modules that two widgets import, statically, and the third does not, from a build's metafile (paths
 * relative to the root, as the metafile gives them). esbuild puts each such group in a chunk of its own:
 * for those two widgets, one file more to fetch and compress apart (about 0.25 KB gzip for the 0.7 KB
 * that the registration form and the agenda share). The build imports these modules from every entry
 * instead (see sourcesPlugin), so they join the chunk every widget shares: a page showing only the third
 * widget downloads them unused. Chunks reached only through import() (the calendar, the robot check) and
 * what they share with one widget are left as they are.
 */
export function sharedByTwo(outputs) {
  const widgets = new Set(Object.values(ENTRIES));
  const entries = Object.keys(outputs).filter((o) => widgets.has(outputs[o].entryPoint));
  const reached = new Map();
  for (const entry of entries)
    for (const chunk of staticImports(outputs, entry)) reached.set(chunk, (reached.get(chunk) ?? 0) + 1);
  const modules = [];
  for (const [chunk, count] of reached)
    if (count > 1 && count < entries.length)
      for (const [input, { bytesInOutput }] of Object.entries(outputs[chunk].inputs))
        if (bytesInOutput > 0) modules.push(input);
  return modules.sort();
}

/** The import that brings `modules` (paths relative to the root) into an entry: see sharedByTwo. */
export function entryImports(modules) {
  return modules.map((m) => `\nimport ${JSON.stringify(join(root, m))};`).join('');
}

/**
 * The catalogue without messages (see catalogueSource), the widget sources (see widgetSource), and the
 * entries with the imports of `hoisted` (see sharedByTwo).
 */
function sourcesPlugin(hoisted) {
  const entries = new Set(Object.values(ENTRIES).map((e) => join(root, e)));
  return {
    name: 'podium-widget-sources',
    setup(b) {
      const idsNow = idsOf(b);
      b.onLoad({ filter: /[\\/]src[\\/]shared[\\/]i18n[\\/]messages\.ts$/ }, async (args) => ({
        contents: catalogueSource(await readFile(args.path, 'utf8')),
        loader: 'ts',
      }));
      b.onLoad({ filter: /[\\/]widgets[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const { messages } = await catalogue();
        let contents = widgetSource(await readFile(args.path, 'utf8'), await idsNow(), messages.en);
        if (entries.has(args.path)) contents += entryImports(hoisted);
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** The locale modules (widgets/src/locales/<locale>.ts): every message the widgets use, in that language. */
function localesPlugin() {
  return {
    name: 'podium-widget-locales',
    setup(b) {
      const idsNow = idsOf(b);
      b.onLoad({ filter: /[\\/]widgets[\\/]src[\\/]locales[\\/](pt|es)\.ts$/ }, async (args) => {
        const locale = /(pt|es)\.ts$/.exec(args.path)[1];
        const { messages } = await catalogue();
        const subset = Object.fromEntries([...(await idsNow())].map(([k, id]) => [id, messages[locale][k]]));
        return { contents: `export default ${JSON.stringify(subset)};`, loader: 'js' };
      });
    },
  };
}

/**
 * The content-hashed files a built file imports statically, directly or not, from esbuild's metafile
 * (paths as the metafile gives them); the dynamic imports (the locale chunks) are not followed.
 */
function staticImports(outputs, file, seen = new Set()) {
  for (const { path, kind } of outputs[file]?.imports ?? []) {
    if (kind !== 'import-statement' || seen.has(path)) continue;
    seen.add(path);
    staticImports(outputs, path, seen);
  }
  return seen;
}

/**
 * A loader per entry: `<name>.js`, importing the entry's chunk and, so the browser fetches them all at
 * once rather than level by level, every chunk that chunk imports. Relative specifiers: they resolve
 * against the loader's own URL, on the Podium site or on any page embedding it.
 */
export function loaderSource(outputs, entryOutputs, outdir) {
  const spec = (path) => JSON.stringify(`./${relative(outdir, join(root, path)).split('\\').join('/')}`);
  const needed = new Set();
  for (const entry of entryOutputs) staticImports(outputs, entry, needed);
  for (const entry of entryOutputs) needed.delete(entry);
  return [
    ...[...needed].map((path) => `import ${spec(path)};\n`),
    ...entryOutputs.map((path) => `export * from ${spec(path)};\n`),
  ].join('');
}

/**
 * Terser's options for the second pass over the chunks (see terserPlugin): ES modules (so their top-level
 * names are local too), no comments.
 */
export const TERSER = { module: true, ecma: 2020, compress: { passes: 2 }, format: { comments: false } };

/**
 * The chunks minified a second time, by terser, when a build ends. esbuild names the variables of a split
 * build once for all its chunks; terser names each chunk's by how often they are used there, which gzip
 * compresses better: 0.23 KB less for the registration form, 0.4 KB for the three widgets (measured with
 * bench/widgets-size.mjs). Lit goes through it as it goes through esbuild's minifier: its code renamed and
 * folded, never edited by us. Chunks keep the names esbuild gave them (from their content before this
 * pass, so still a new name for new code).
 */
function terserPlugin() {
  return {
    name: 'podium-widget-terser',
    setup(b) {
      b.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        const { outputs } = result.metafile;
        await Promise.all(
          Object.keys(outputs)
            .filter((file) => file.endsWith('.js'))
            .map(async (file) => {
              const path = join(root, file);
              const { code } = await minify(await readFile(path, 'utf8'), TERSER);
              await writeFile(path, code);
              outputs[file].bytes = Buffer.byteLength(code);
            }),
        );
      });
    },
  };
}

/** Writes the loaders of a build (see loaderSource) when it ends. */
function loadersPlugin(outdir) {
  return {
    name: 'podium-widget-loaders',
    setup(b) {
      b.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        const { outputs } = result.metafile;
        const outputOf = (entry) => Object.keys(outputs).find((o) => outputs[o].entryPoint === ENTRIES[entry]);
        for (const [name, entries] of Object.entries(LOADERS)) {
          const loader = join(outdir, `${name}.js`);
          await writeFile(loader, loaderSource(outputs, entries.map(outputOf), outdir));
          outputs[relative(root, loader)] = { bytes: (await readFile(loader)).length, loader: true };
        }
      });
    },
  };
}

/** esbuild's options for the widgets, the modules of `hoisted` imported by every entry (see sharedByTwo). */
export function buildOptions(outdir = OUTDIR, hoisted = []) {
  return {
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, input]) => ({ in: input, out })),
    outdir,
    entryNames: `${CHUNKS}/[name]-[hash]`,
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'external',
    metafile: true,
    logLevel: 'warning',
    plugins: [localesPlugin(), sourcesPlugin(hoisted), terserPlugin(), loadersPlugin(outdir)],
  };
}

/** What sharedByTwo finds in a build that writes nothing (the loaders left out). */
export async function hoistedModules(outdir = OUTDIR) {
  const options = buildOptions(outdir);
  const plugins = options.plugins.filter((p) => !['podium-widget-loaders', 'podium-widget-terser'].includes(p.name));
  const { metafile } = await build({ ...options, plugins, write: false });
  return sharedByTwo(metafile.outputs);
}

/** The chunks of the last build, kept by the next one (see buildWidgets); a dotfile, which the site never serves. */
const BUILT = '.chunks.json';

/** Files of the output folder that are not the build's: the Custom Elements Manifest (`npm run build:widgets`). */
const KEEP = /^(?:\.gitignore|custom-elements\.json)$/;

/**
 * Builds the widgets into `outdir`, with a .br and a .gz beside each file; answers the outputs by file
 * (esbuild's metafile outputs, the loaders included). The chunks of the build before stay: a page may
 * hold that build's loader (cached for its max-age, or fetched just before the new build went live) and
 * still ask for them. Older chunks, and anything else in the folder, are removed.
 */
export async function buildWidgets(outdir = OUTDIR) {
  const chunks = join(outdir, CHUNKS);
  await mkdir(chunks, { recursive: true });
  // Build output, not source: the folder keeps only this .gitignore in git.
  await writeFile(join(outdir, '.gitignore'), '*\n');
  const previous = new Set(JSON.parse(await readFile(join(outdir, BUILT), 'utf8').catch(() => '[]')));
  const { metafile } = await build(buildOptions(outdir, await hoistedModules(outdir)));
  const written = new Set(Object.keys(metafile.outputs).map((o) => relative(outdir, join(root, o))));
  const built = [...written].filter((f) => dirname(f) === CHUNKS).map((f) => f.slice(CHUNKS.length + 1));
  for (const name of await readdir(chunks)) {
    const file = name.replace(/\.(?:br|gz)$/, '');
    if (!built.includes(file) && !previous.has(file)) await rm(join(chunks, name));
  }
  for (const name of await readdir(outdir)) {
    if (name !== CHUNKS && !KEEP.test(name) && !written.has(name.replace(/\.(?:br|gz)$/, '')))
      await rm(join(outdir, name), { recursive: true });
  }
  const { precompressDir } = await import(pathToFileURL(join(root, 'src', 'site', 'precompress.ts')).href);
  await precompressDir(outdir);
  await writeFile(join(outdir, BUILT), JSON.stringify(built));
  return metafile.outputs;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice(9) ?? OUTDIR;
  if (process.argv.includes('--watch')) {
    await mkdir(outdir, { recursive: true });
    // The modules two widgets share as the sources are now (a rebuild keeps them).
    const ctx = await context({ ...buildOptions(outdir, await hoistedModules(outdir)), logLevel: 'info' });
    await ctx.watch();
    console.log(`watching widgets → ${relative(process.cwd(), outdir) || '.'}`);
  } else {
    const outputs = await buildWidgets(outdir);
    for (const [file, out] of Object.entries(outputs))
      console.log(`${relative(process.cwd(), join(root, file))}  ${(out.bytes / 1024).toFixed(1)} KB`);
  }
}
