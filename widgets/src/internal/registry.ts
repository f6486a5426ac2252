// One registry per page, kept on globalThis. Loaders of one build share their chunks, so this module runs
// once for them; a page with two copies of the widgets (from two sites, or two releases) runs it twice,
// and the second copy reuses the first copy's stores, so a grant given to one access gate reaches every
// Podium widget on the page whichever copy defined it.

const KEY = Symbol.for('podium.widgets');
const registry: Record<string, unknown> = ((globalThis as Record<symbol, unknown>)[KEY] ??= {}) as Record<
  string,
  unknown
>;

/** The page-wide instance named `name`, made by `create` the first time any copy asks for it. */
export function shared<T>(name: string, create: () => T): T {
  return (registry[name] ??= create()) as T;
}
