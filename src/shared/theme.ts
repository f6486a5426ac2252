// The theme shared by the site and the widgets: CSS custom properties derived from the company's
// mainColor/backgroundColor and the event's fontFamily. Organizer input is validated here (colors are
// #rgb or #rrggbb, font names a short safe alphabet), so nothing an organizer types can inject CSS; and
// the derived colors keep text readable (WCAG AA: 4.5:1 for text, 3:1 for input borders).

export interface ThemeInput {
  mainColor?: string | null;
  backgroundColor?: string | null;
  fontFamily?: string | null;
}

export const DEFAULT_PRIMARY = '#1d4ed8';
export const DEFAULT_BACKGROUND = '#ffffff';
export const DEFAULT_FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
export const DEFAULT_RADIUS = '8px';
/** Errors: a red that reads 6.6:1 on white (6.1:1 on the default surface). */
export const DEFAULT_DANGER = '#b42318';

/** Every custom property themeVars() returns, in order. */
export const THEME_VARS = [
  '--podium-color-primary',
  '--podium-color-on-primary',
  '--podium-color-primary-text',
  '--podium-color-text',
  '--podium-color-muted',
  '--podium-color-bg',
  '--podium-color-surface',
  '--podium-color-border',
  '--podium-color-input-border',
  '--podium-color-focus',
  '--podium-color-danger',
  '--podium-font-family',
  '--podium-radius',
] as const;

export type ThemeVar = (typeof THEME_VARS)[number];

type Rgb = [number, number, number];

/** '#abc' or '#aabbcc' (any case, surrounding spaces allowed) → '#aabbcc'; anything else → null. */
export function normalizeColor(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}`;
  return null;
}

function rgbOf(hex: string): Rgb {
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
}

function hexOf(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** WCAG relative luminance of a #rrggbb color. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colors (1 … 21). */
export function contrastRatio(a: string, b: string): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `a` moved toward `b` by `amount` (0 = a, 1 = b), in sRGB. */
export function mix(a: string, b: string, amount: number): string {
  const x = rgbOf(a);
  const y = rgbOf(b);
  return hexOf([0, 1, 2].map((i) => x[i] + (y[i] - x[i]) * amount) as Rgb);
}

/** The least change of `color` toward `toward` that reaches `ratio` against every one of `against`. */
function ensureContrast(color: string, against: readonly string[], ratio: number, toward: string): string {
  const enough = (c: string) => against.every((back) => contrastRatio(c, back) >= ratio);
  if (enough(color)) return color;
  for (let step = 1; step <= 20; step++) {
    const candidate = mix(color, toward, step / 20);
    if (enough(candidate)) return candidate;
  }
  return toward;
}

/** Black or white: whichever reads better on `background` (one of them always reaches 4.5:1). */
export function onColor(background: string): '#000000' | '#ffffff' {
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}

const GENERIC_FAMILIES = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
]);

/**
 * A font-family value from organizer input: comma-separated names of letters, digits, spaces, '-' and '_'
 * (quotes around a name are dropped and put back), at most 4, followed by the default stack. Anything
 * else is dropped; nothing valid → the default stack.
 */
export function fontStack(fontFamily: string | null | undefined): string {
  if (typeof fontFamily !== 'string') return DEFAULT_FONT_STACK;
  const names: string[] = [];
  for (const raw of fontFamily.split(',').slice(0, 4)) {
    const name = raw
      .trim()
      .replace(/^(["'])(.*)\1$/, '$2')
      .trim()
      .replace(/\s+/g, ' ');
    if (!/^[\p{L}\p{N}][\p{L}\p{N} _-]{0,63}$/u.test(name)) continue;
    const lower = name.toLowerCase();
    if (GENERIC_FAMILIES.has(lower)) names.push(lower);
    else if (!['inherit', 'initial', 'unset', 'revert', 'revert-layer', 'default'].includes(lower))
      names.push(`"${name}"`);
  }
  return names.length === 0 ? DEFAULT_FONT_STACK : `${[...new Set(names)].join(', ')}, ${DEFAULT_FONT_STACK}`;
}

/**
 * The --podium-* custom properties for a company/event look (input validated, safe defaults):
 * - `--podium-color-primary`: mainColor (buttons, highlights); `--podium-color-on-primary`: black or white
 *   text on it (≥ 4.5:1);
 * - `--podium-color-primary-text`: the primary color adjusted to be readable as text/links on the
 *   background (≥ 4.5:1), for a light mainColor such as yellow;
 * - `--podium-color-bg`: backgroundColor; `--podium-color-text` (≥ 7:1 on it where the background
 *   allows, else black or white: ≥ 4.5:1), `--podium-color-muted` (≥ 4.5:1 on bg and on surface);
 * - `--podium-color-surface` (cards, slightly off the background), `--podium-color-border` (decorative
 *   lines), `--podium-color-input-border` (form fields, ≥ 3:1), `--podium-color-focus` (focus ring,
 *   ≥ 3:1 on bg and on surface: it rings controls on cards too);
 * - `--podium-color-danger`: errors and refused fields, a red readable on bg and surface (≥ 4.5:1; on a
 *   dark background the red lightens);
 * - `--podium-font-family`, `--podium-radius`.
 */
export function themeVars(input: ThemeInput = {}): Record<ThemeVar, string> {
  const primary = normalizeColor(input.mainColor) ?? DEFAULT_PRIMARY;
  const bg = normalizeColor(input.backgroundColor) ?? DEFAULT_BACKGROUND;
  const ink = onColor(bg); // black or white, whichever reads better on the background (≥ 4.58:1)
  // Near-black or near-white text, 7:1 where the background allows (a mid-grey only allows ink).
  const text = ensureContrast(ink === '#000000' ? '#1a1a1a' : '#f3f4f6', [bg], 7, ink);
  // Cards: slightly toward the text color, or away from it when that would cost the text its contrast.
  const surface = [mix(bg, text, 0.04), mix(bg, ink === '#000000' ? '#ffffff' : '#000000', 0.06), bg].find(
    (c) => contrastRatio(text, c) >= 4.5,
  )!;
  return {
    '--podium-color-primary': primary,
    '--podium-color-on-primary': onColor(primary),
    '--podium-color-primary-text': ensureContrast(primary, [bg, surface], 4.5, text),
    '--podium-color-text': text,
    '--podium-color-muted': ensureContrast(mix(text, bg, 0.35), [bg, surface], 4.5, text),
    '--podium-color-bg': bg,
    '--podium-color-surface': surface,
    '--podium-color-border': mix(bg, text, 0.18),
    '--podium-color-input-border': ensureContrast(mix(bg, text, 0.45), [bg], 3, text),
    '--podium-color-focus': ensureContrast(primary, [bg, surface], 3, text),
    '--podium-color-danger': ensureContrast(DEFAULT_DANGER, [bg, surface], 4.5, text),
    '--podium-font-family': fontStack(input.fontFamily),
    '--podium-radius': DEFAULT_RADIUS,
  };
}

/**
 * The properties as one CSS rule: `:root{--podium-color-primary:#1d4ed8;…}`. Only `--podium-*` names are
 * written, and a value holding any of `;{}<>\` or a comment/quote imbalance is skipped, so even a value
 * not made by themeVars() cannot break out of the rule. `selector` must be a constant of the caller's.
 */
export function themeCss(vars: Readonly<Record<string, string>>, selector = ':root'): string {
  const body = Object.entries(vars)
    .filter(
      ([name, value]) =>
        /^--podium-[a-z0-9-]+$/.test(name) &&
        typeof value === 'string' &&
        !/[;{}<>\\\n\r]|\/\*|\*\//.test(value) &&
        (value.split('"').length - 1) % 2 === 0 &&
        (value.split("'").length - 1) % 2 === 0,
    )
    .map(([name, value]) => `${name}:${value.trim()};`)
    .join('');
  return `${selector.replace(/[{}<>;]/g, '')}{${body}}`;
}
