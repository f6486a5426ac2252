// The theme stylesheet of a page: the --podium-* custom properties (src/shared/theme.ts, the same
// contract the widgets use) and the colors of the event's tags, served as a file so the
// Content-Security-Policy needs no inline styles. Its address carries the inputs (validated here and
// again by themeVars), so it is stateless and cacheable forever: /_podium/theme.css?p=4f46e5&b=ffffff&f=Inter&t=3-be185d.

import { formQuery } from '../shared/form-query.ts';
import { normalizeColor, themeCss, themeVars } from '../shared/theme.ts';

export interface ThemeInput {
  mainColor?: string;
  backgroundColor?: string;
  fontFamily?: string;
  tags?: { tagID: string | number; color: string }[];
}

const hex = (c: string | undefined) => normalizeColor(c ?? '')?.slice(1) ?? '';

/** The stylesheet's address for a look (the site's own path; the same inputs give the same address). */
export function themeHref(input: ThemeInput): string {
  // A program's tags are one array per program (program.ts): its address is made once per look.
  if (!input.tags) return themeHrefOf(input);
  let byLook = hrefs.get(input.tags);
  if (!byLook) hrefs.set(input.tags, (byLook = new Map()));
  const look = `${input.mainColor ?? ''}|${input.backgroundColor ?? ''}|${input.fontFamily ?? ''}`;
  let href = byLook.get(look);
  if (href === undefined) byLook.set(look, (href = themeHrefOf(input)));
  return href;
}

const hrefs = new WeakMap<object, Map<string, string>>();

function themeHrefOf(input: ThemeInput): string {
  const tags = (input.tags ?? [])
    .filter((t) => hex(t.color) !== '')
    .map((t) => `${t.tagID}-${hex(t.color)}`)
    .slice(0, 200);
  const query = formQuery({
    p: hex(input.mainColor),
    b: hex(input.backgroundColor),
    f: input.fontFamily?.slice(0, 200),
    t: tags.join('.'),
    v: '1',
  });
  return `/_podium/theme.css?${query}`;
}

/** The stylesheet for a theme.css query. */
export function themeStylesheet(query: URLSearchParams): string {
  const color = (v: string | null) => (v && /^[0-9a-f]{6}$/i.test(v) ? `#${v.toLowerCase()}` : undefined);
  const vars = themeVars({
    mainColor: color(query.get('p')),
    backgroundColor: color(query.get('b')),
    fontFamily: query.get('f')?.slice(0, 200),
  });
  const rules = [themeCss(vars, ':root')];
  for (const item of (query.get('t') ?? '').split('.').slice(0, 200)) {
    const m = /^(\d{1,15})-([0-9a-f]{6})$/i.exec(item);
    if (m) rules.push(`.tag-${m[1]}{--tag-color:#${m[2].toLowerCase()}}`);
  }
  return `${rules.join('\n')}\n`;
}
