// custom-elements.json from the components' JSDoc (@summary @tagname @slot @event @csspart
// @cssproperty, and the attributes of `static properties`):
//   npx cem analyze --config widgets/custom-elements-manifest.config.mjs
// Internal state (`{ state: true }` properties, private and protected members) and the events the
// analyzer infers without a name are left out: the manifest is the public API.

/** Drops what is not public API from every class of the manifest. */
function publicApiOnly() {
  return {
    name: 'podium-public-api-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const decl of mod.declarations ?? []) {
          if (decl.kind !== 'class') continue;
          const hidden = new Set(
            (decl.members ?? [])
              .filter((m) => m.privacy === 'private' || m.privacy === 'protected' || m.name.startsWith('#'))
              .map((m) => m.name),
          );
          decl.members = (decl.members ?? []).filter((m) => !hidden.has(m.name) && !m.static);
          decl.attributes = (decl.attributes ?? []).filter((a) => !hidden.has(a.fieldName ?? a.name));
          decl.events = (decl.events ?? []).filter((e) => e.name);
        }
      }
    },
  };
}

export default {
  globs: ['widgets/src/components/*/*.ts', 'widgets/src/internal/podium-element.ts'],
  exclude: ['**/*.test.ts', '**/*.styles.ts'],
  outdir: process.env.CEM_OUTDIR ?? 'public/widgets',
  litelement: true,
  dependencies: false,
  packagejson: false,
  plugins: [publicApiOnly()],
};
