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
// - message keys become short numbers, the same in every bundle and locale file (see messageIds);
// - html`…` and css`…` templates lose their indentation (and CSS its comments);
// - the widget classes' `_name` members and Lit's internal `_$…` ones get short names (see MANGLED);
// - Lit's Trusted Types policy is shared by every Podium bundle on a page, and the parts of Lit the
//   widgets never use are left out (see LIT_PATCHES).

import { build, context } from 'esbuild';
import { readFile, readdir, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
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

/** A message key as a widget source spells it. */
const MESSAGE_KEY = /'([a-zA-Z]+\.[\w.]+)'/g;

/**
 * The catalogue keys that `files` spell out (as 'key' literals), with their `.one` plurals; by default
 * those of every widget source.
 */
export async function widgetMessageKeys(files) {
  const { messages } = await import(pathToFileURL(MESSAGES).href);
  const known = new Set(Object.keys(messages.en));
  const used = new Set();
  for (const file of files ?? (await sourcesOf(join(here, 'src')))) {
    for (const [, key] of (await readFile(file, 'utf8')).matchAll(MESSAGE_KEY)) {
      if (known.has(key)) used.add(key);
      if (known.has(`${key}.one`)) used.add(`${key}.one`);
    }
  }
  return used;
}

/**
 * Message keys as the bundles and the locale files spell them: a number each, the key's place among the
 * keys the widget sources use (sorted), so every bundle and locale file agrees; the singular of a counted
 * message is `<number>.one`. Sources keep the readable keys ('form.submit'); the build swaps their
 * literals (a widget never builds a key at run time: `widgetMessageKeys` could not find it either).
 */
export async function messageIds() {
  const keys = [...(await widgetMessageKeys())];
  const base = (k) => k.replace(/\.one$/, '');
  const ids = new Map([...new Set(keys.map(base))].sort().map((k, i) => [k, String(i)]));
  for (const k of keys) if (k !== base(k)) ids.set(k, `${ids.get(base(k))}.one`);
  return ids;
}

/** A plugin's message ids, worked out once per build (`ids` when given). */
function idsOf(b, ids) {
  let pending = ids && Promise.resolve(ids);
  if (!ids) b.onStart(() => void (pending = undefined));
  return () => (pending ??= messageIds());
}

const ENTRY_LINE = /^[ \t]*'([\w.]+)':[ \t\n]*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"),[ \t]*(?:\/\/[^\n]*)?\n/gm;
const OTHER_LOCALES = /const (pt|es)(?:: Messages)? = \{[\s\S]*?\n\};/g;

/**
 * The catalogue's source for a bundle: English with only the entries `keys` names; Portuguese and
 * Spanish empty (they are the podium-locale-*.js files, loaded when a widget speaks them).
 */
export function messagesPlugin(keys, ids) {
  return {
    name: 'podium-widget-messages',
    setup(b) {
      const idsNow = idsOf(b, ids);
      b.onLoad({ filter: /[\\/]src[\\/]shared[\\/]i18n[\\/]messages\.ts$/ }, async (args) => {
        const keep = await (keys ?? widgetMessageKeys());
        const id = await idsNow();
        const source = (await readFile(args.path, 'utf8')).replace(OTHER_LOCALES, 'const $1 = {} as Messages;');
        return {
          contents: source.replace(ENTRY_LINE, (line, key) => (keep.has(key) ? line.replace(key, id.get(key)) : '')),
          loader: 'ts',
        };
      });
    },
  };
}

/** podium-locale-<locale>.js: every message the widgets use, in that language. */
async function writeLocales(outdir, ids) {
  const { messages, LOCALES } = await import(pathToFileURL(MESSAGES).href);
  const id = ids ?? (await messageIds());
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const subset = Object.fromEntries([...id].map(([k, i]) => [i, messages[locale][k]]));
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

/** Widget sources: templates minified (see minifyTemplates), message keys as their ids (see messageIds). */
function templatesPlugin(ids) {
  return {
    name: 'podium-widget-templates',
    setup(b) {
      const idsNow = idsOf(b, ids);
      b.onLoad({ filter: /[\\/]widgets[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        litGuard(args.path, source);
        const id = await idsNow();
        const contents = minifyTemplates(source).replace(MESSAGE_KEY, (literal, key) =>
          id.has(key) ? (key.endsWith('.one') ? `'${id.get(key)}'` : id.get(key)) : literal,
        );
        return { contents, loader: 'ts' };
      });
    },
  };
}

const LIT_POLICY = 's.createPolicy("lit-html",{createHTML:t=>t})';

/**
 * What the build changes in Lit's published (minified) modules, each [from, to]; a `from` that is not
 * found stops the build (Lit changed: look again). Two kinds:
 *
 * - Every Podium bundle on a page shares one Trusted Types policy: Lit creates its 'lit-html' policy when
 *   it loads, and a second bundle (podium.js and podium-agenda.js on one page) creating it again is a
 *   violation of `trusted-types lit-html` (without 'allow-duplicates') that stops that bundle. The policy
 *   is kept in the page-wide registry (src/internal/registry.ts) and reused.
 * - Code for what the widgets never use, left out (smaller bundles): decorators and their metadata,
 *   reflecting properties to attributes, `useDefault`, `noAccessor`, Object/Array attribute types,
 *   directives, `svg` and `mathml` templates, compiled templates, iterables other than arrays in
 *   templates, CSSStyleSheet objects in `static styles`, SSR hydration, the polyfill hooks (the widgets
 *   need an ES2022 browser, which has custom elements and shadow DOM) and the version registries; long error
 *   messages for misuse become short ones. `litGuard` stops the build when a widget source starts using
 *   one of these.
 */
const LIT_PATCHES = {
  'lit-html/lit-html.js': [
    [LIT_POLICY, `(t[Symbol.for("podium.widgets")]??={}).litPolicy??=${LIT_POLICY}`],
    ['"invalid template strings array"', '"lit"'],
    // No directive: a value is drawn as it is.
    [
      'function M(t,i,s=t,e){if(i===E)return i;let h=void 0!==e?s._$Co?.[e]:s._$Cl;const o=a(i)?void 0:i._$litDirective$;return h?.constructor!==o&&(h?._$AO?.(!1),void 0===o?h=void 0:(h=new o(t),h._$AT(t,s,e)),void 0!==e?(s._$Co??=[])[e]=h:s._$Cl=h),void 0!==h&&(i=M(t,h._$AS(t,i.values),h,e)),i}',
      'function M(t,i){return i}',
    ],
    // No svg`` or mathml``.
    ['l=2===i?"<svg>":3===i?"<math>":""', 'l=""'],
    ['+(2===i?"</svg>":3===i?"</math>":"")', ''],
    [',2===i||3===i){const t=this.el.content.firstChild;t.replaceWith(...t.childNodes)}', '){}'],
    // No compiled templates (@lit-labs/compiler), no scoped registries.
    [
      '"number"==typeof s?this._$AC(t):(void 0===s.el&&(s.el=S.createElement(V(s.h,s.h[0]),this.options)),s)',
      'this._$AC(t)',
    ],
    ['(t?.creationScope??l).importNode', 'l.importNode'],
    // No async directives: parts keep no connection state.
    ['get _$AU(){return this._$AM._$AU}', ''],
    ['get _$AU(){return this._$AM?._$AU??this._$Cv}', ''],
    ['this._$AN=void 0,', ''],
    [',this._$Cv=e?.isConnected??!0', ''],
    ['setConnected(t){void 0===this._$AM&&(this._$Cv=t,this._$AP?.(t))}', 'setConnected(){}'],
    ['for(this._$AP?.(!1,!0,s);', 'for(;'],
    // No element bindings (<div ${…}>: only a directive does something there).
    ['class Z{constructor(t,i,s){this.element=t,this.type=6,this._$AM=i,this.options=s}_$AI(t){M(this,t)}}', ''],
    [':6===r.type&&(i=new Z(h,this,t))', ':0'],
    [',F:Z}', '}'],
    // No binding inside <textarea>, <title>, <style> or <script>.
    [
      'if(y.test(r.tagName)){const t=r.textContent.split(o),i=t.length-1;if(i>0){r.textContent=s?s.emptyScript:"";for(let s=0;s<i;s++)r.append(t[s],c()),P.nextNode(),d.push({type:2,index:++l});r.append(t[i],c())}}',
      '',
    ],
    [',B=t.litHtmlPolyfillSupport;B?.(S,k),(t.litHtmlVersions??=[]).push("3.3.3");', ';'],
    // No directives: parts need not tell where they are (parentNode, startNode, endNode, tagName).
    ['get parentNode(){return this._$AM.parentNode}', ''],
    [
      'get parentNode(){let t=this._$AA.parentNode;const i=this._$AM;return void 0!==i&&11===t?.nodeType&&(t=i.parentNode),t}get startNode(){return this._$AA}get endNode(){return this._$AB}',
      '',
    ],
    ['get tagName(){return this.element.tagName}', ''],
    // Lists are arrays (a template never draws another iterable).
    ['d=t=>u(t)||"function"==typeof t?.[Symbol.iterator]', 'd=u'],
  ],
  'lit-element/lit-element.js': [
    [',s.litElementHydrateSupport?.({LitElement:i});const o=s.litElementPolyfillSupport;o?.({LitElement:i});', ';'],
    [';(s.litElementVersions??=[]).push("4.2.2")', ''],
    ['this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),', ''],
    // Parts keep no connection state (see setConnected above).
    ['connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}', ''],
    ['disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}', ''],
  ],
  '@lit/reactive-element/reactive-element.js': [
    // Attributes are only read (no reflect), as strings, booleans or numbers.
    [
      'toAttribute(t,s){switch(s){case Boolean:t=t?l:null;break;case Object:case Array:t=null==t?t:JSON.stringify(t)}return t},',
      '',
    ],
    ['case Object:case Array:try{i=JSON.parse(t)}catch(t){i=null}', ''],
    [
      '_$ET(t,s){const i=this.constructor.elementProperties.get(t),e=this.constructor._$Eu(t,i);if(void 0!==e&&!0===i.reflect){const h=(void 0!==i.converter?.toAttribute?i.converter:u).toAttribute(s,i.type);this._$Em=t,null==h?this.removeAttribute(e):this.setAttribute(e,h),this._$Em=null}}',
      '',
    ],
    ['this._$Eq&&=this._$Eq.forEach(t=>this._$ET(t,this[t])),', ''],
    // No decorators: no metadata, no initializers.
    ['Symbol.metadata??=Symbol("metadata"),a.litPropertyMetadata??=new WeakMap;', ''],
    [
      'const t=this[Symbol.metadata];if(null!==t){const s=litPropertyMetadata.get(t);if(void 0!==s)for(const[t,i]of s)this.elementProperties.set(t,i)}',
      '',
    ],
    ['static addInitializer(t){this._$Ei(),(this.l??=[]).push(t)}', ''],
    [',void 0!==t.l&&(this.l=[...t.l])', ''],
    [',this.constructor.l?.forEach(t=>t(this))', ''],
    // No `useDefault`, no accessors of our own around reactive properties.
    ['this.prototype.hasOwnProperty(t)&&((s=Object.create(s)).wrapped=!0),', ''],
    ['||i.useDefault&&i.reflect&&h===this._$Ej?.get(t)&&!this.hasAttribute(r._$Eu(t,i))', ''],
    [
      'C(t,s,{useDefault:i,reflect:e,wrapped:h},r){i&&!(this._$Ej??=new Map).has(t)&&(this._$Ej.set(t,r??s??this[t]),!0!==h||void 0!==r)||(this._$AL.has(t)||(this.hasUpdated||i||(s=void 0),this._$AL.set(t,s)),!0===e&&this._$Em!==t&&(this._$Eq??=new Set).add(t))}',
      'C(t,s){this._$AL.has(t)||(this.hasUpdated||(s=void 0),this._$AL.set(t,s))}',
    ],
    ['this[e]=r??this._$Ej?.get(e)??r', 'this[e]=r'],
    // No converters of our own.
    [
      'h="function"==typeof t.converter?{fromAttribute:t.converter}:void 0!==t.converter?.fromAttribute?t.converter:u',
      'h=u',
    ],
    [
      'const t=this.constructor.elementProperties;if(t.size>0)for(const[s,i]of t){const{wrapped:t}=i,e=this[s];!0!==t||this._$AL.has(s)||void 0===e||this.C(s,void 0,i,e)}',
      '',
    ],
    [',p?.({ReactiveElement:y}),(a.reactiveElementVersions??=[]).push("2.1.2")', ''],
    ['c=a.trustedTypes,l=c?c.emptyScript:"",p=a.reactiveElementPolyfillSupport,', ''],
    ['reflect:!1,useDefault:!1,', ''],
    // Attributes only set properties (nothing reflects back): no guard against a loop; keys are strings.
    [
      'if(void 0!==e&&this._$Em!==e){const t=i.getPropertyOptions(e),h=u;this._$Em=e;const r=h.fromAttribute(s,t.type);this[e]=r,this._$Em=null}',
      'void 0!==e&&(this[e]=u.fromAttribute(s,i.getPropertyOptions(e).type))',
    ],
    ['this.hasUpdated=!1,this._$Em=null,', 'this.hasUpdated=!1,'],
    ['"string"==typeof i?i:"string"==typeof t?t.toLowerCase():void 0', '"string"==typeof i?i:t.toLowerCase()'],
    ['[...r(t),...o(t)]', 'r(t)'],
    // Every reactive property has Lit's accessor (`noAccessor` is refused by litGuard).
    [
      ',!s.noAccessor){const i=Symbol(),h=this.getPropertyDescriptor(t,i,s);void 0!==h&&e(this.prototype,t,h)}',
      '){e(this.prototype,t,this.getPropertyDescriptor(t,Symbol(),s))}',
    ],
    // `static styles` is a css`…` result or an array of them (nested arrays allowed; not de-duplicated).
    [
      'static finalizeStyles(s){const i=[];if(Array.isArray(s)){const e=new Set(s.flat(1/0).reverse());for(const s of e)i.unshift(t(s))}else void 0!==s&&i.push(t(s));return i}',
      'static finalizeStyles(s){return[s??[]].flat(1/0)}',
    ],
  ],
  '@lit/reactive-element/css-tag.js': [
    ['"CSSResult is not constructable. Use `unsafeCSS` or `css` instead."', '"css"'],
    // No polyfills (ShadyCSS); styles are css`…` results, never CSSStyleSheet objects (litGuard checks).
    ['t.ShadowRoot&&(void 0===t.ShadyCSS||t.ShadyCSS.nativeShadow)&&', ''],
    [
      'c=e?t=>t:t=>t instanceof CSSStyleSheet?(t=>{let e="";for(const s of t.cssRules)e+=s.cssText;return r(e)})(t):t',
      'c=t=>t',
    ],
    // No ${…} in css`…`.
    [
      `i=(t,...e)=>{const o=1===t.length?t[0]:e.reduce((e,s,o)=>e+(t=>{if(!0===t._$cssResult$)return t.cssText;if("number"==typeof t)return t;throw Error("Value passed to 'css' function must be a 'css' function result: "+t+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(s)+t[o+1],t[0]);return new n(o,t,s)}`,
      'i=t=>new n(t[0],t,s)',
    ],
  ],
};

/** Lit's modules as the widgets ship them (see LIT_PATCHES); importing a directive stops the build. */
export function litPlugin() {
  return {
    name: 'podium-lit',
    setup(b) {
      b.onResolve({ filter: /(^|[\\/])directives?([\\/.]|$)/ }, (args) => {
        if (args.importer.includes('node_modules')) return undefined;
        return { errors: [{ text: `${args.path}: the build leaves Lit's directive support out (see LIT_PATCHES)` }] };
      });
      b.onLoad(
        { filter: /[\\/]node_modules[\\/](lit-html|lit-element|@lit[\\/]reactive-element)[\\/][\w-]+\.js$/ },
        async (args) => {
          const name = Object.keys(LIT_PATCHES).find((n) => args.path.endsWith(n.replaceAll('/', sep)));
          let source = await readFile(args.path, 'utf8');
          for (const [from, to] of name ? LIT_PATCHES[name] : []) {
            if (!source.includes(from)) throw new Error(`Lit changed: "${from.slice(0, 60)}…" not found in ${name}`);
            source = source.replaceAll(from, to);
          }
          return { contents: source, loader: 'js' };
        },
      );
    },
  };
}

/**
 * Property names the build shortens: `_name`, which only the widgets' own classes use (the DOM has
 * none), and Lit's internal members (`_$AH`, `_$Ep`, …: each bundle carries its own Lit, which no other
 * code on the page touches; the `_$litType$`-like markers are kept). A string naming a `_name`
 * (`changed.has('_info')`) must say so with `/* @__KEY__ *\/` so it is shortened too; `litGuard` checks.
 */
export const MANGLED = /^_[a-z]|^_\$[A-Z][A-Za-z_]$/;
const UNMARKED_KEY = /(?<!@__KEY__ \*\/ )'_[a-z]\w*'/; // sources quote strings with ' (prettier)

/** What LIT_PATCHES leaves out of Lit, as it would appear in a widget source. */
const LIT_UNSUPPORTED = new RegExp(
  [
    /\b(?:svg|mathml)`/,
    /\bcss`[^`]*\$\{/,
    /<(?:textarea|title|style|script)\b[^>]*>[^<]*\$\{/,
    /\b(?:reflect|converter|useDefault|noAccessor|creationScope)\s*:/,
    /\baddInitializer\b/,
    /\bCSSStyleSheet\b/,
    /\btype\s*:\s*(?:Object|Array)\b/,
    /^\s*@[a-z]\w*\(/, // decorators
  ]
    .map((r) => r.source)
    .join('|'),
  'm',
);

/**
 * Stops the build when `source` (of `path`) uses what the build leaves out of Lit, or names a shortened
 * property in a string without saying so (see MANGLED).
 */
export function litGuard(path, source) {
  const m = LIT_UNSUPPORTED.exec(source);
  if (m) throw new Error(`${path}: "${m[0].trim()}" needs what the build leaves out of Lit (see LIT_PATCHES)`);
  const key = UNMARKED_KEY.exec(source);
  if (key) throw new Error(`${path}: ${key[0]} is shortened by the build: write /* @__KEY__ */ ${key[0]}`);
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
    legalComments: 'external',
    // The widget classes' own members are named `_name` (Lit's convention for internal state): shortened.
    mangleProps: MANGLED,
    metafile: true,
    logLevel: 'warning',
    plugins: [messagesPlugin(), templatesPlugin(), litPlugin()],
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
  const ids = await messageIds();
  await writeLocales(outdir, ids);
  await Promise.all(
    buildOptions(outdir).entryPoints.map(async (entry) => {
      const options = { ...buildOptions(outdir), entryPoints: [entry] };
      const probe = await build({ ...options, write: false, minify: false, plugins: [templatesPlugin(ids)] });
      const files = Object.keys(probe.metafile.inputs)
        .filter((f) => f.startsWith('widgets/src/'))
        .map((f) => join(root, f));
      const keys = await widgetMessageKeys(files);
      const result = await build({
        ...options,
        plugins: [messagesPlugin(keys, ids), templatesPlugin(ids), litPlugin()],
      });
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
