import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DANGER,
  DEFAULT_FONT_STACK,
  DEFAULT_PRIMARY,
  THEME_VARS,
  contrastRatio,
  fontStack,
  normalizeColor,
  onColor,
  themeCss,
  themeVars,
} from '../../src/shared/theme.ts';

describe('colors', () => {
  it.each([
    ['#abc', '#aabbcc'],
    ['#AABBCC', '#aabbcc'],
    [' #123456 ', '#123456'],
    ['#abcd', null],
    ['#12345g', null],
    ['red', null],
    ['rgb(0,0,0)', null],
    ['#fff;}body{color:red', null],
    ['url(javascript:x)', null],
    ['', null],
    [undefined, null],
  ])('normalizeColor(%j) = %j', (input, expected) => {
    expect(normalizeColor(input as string)).toBe(expected);
  });

  it.each([
    ['#ffffff', '#000000', 21],
    ['#000000', '#000000', 1],
    ['#777777', '#ffffff', 4.48],
  ])('contrast of %s and %s is %f', (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
  });

  it.each([
    ['#ffff00', '#000000'],
    ['#1d4ed8', '#ffffff'],
    ['#777777', '#000000'],
    ['#ff0000', '#000000'],
    ['#000080', '#ffffff'],
  ])('text on %s is %s', (bg, fg) => {
    expect(onColor(bg)).toBe(fg);
    expect(contrastRatio(onColor(bg), bg)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('themeVars', () => {
  it('has every variable, with defaults', () => {
    const vars = themeVars({});
    expect(Object.keys(vars)).toEqual([...THEME_VARS]);
    expect(vars['--podium-color-primary']).toBe(DEFAULT_PRIMARY);
    expect(vars['--podium-color-bg']).toBe('#ffffff');
    expect(vars['--podium-font-family']).toBe(DEFAULT_FONT_STACK);
    expect(vars['--podium-color-danger']).toBe(DEFAULT_DANGER);
    expect(themeVars()).toEqual(vars);
  });

  it('falls back on invalid input', () => {
    expect(themeVars({ mainColor: 'red;}', backgroundColor: 'expression(x)', fontFamily: '}{' })).toEqual(
      themeVars({}),
    );
    expect(themeVars({ mainColor: null, backgroundColor: null, fontFamily: null })).toEqual(themeVars({}));
  });

  // Every pair of these as (main, background), plus pseudo-random ones.
  const samples = [
    '#ffffff',
    '#000000',
    '#ffff00',
    '#777777',
    '#808080',
    '#ff0000',
    '#00ff00',
    '#1d4ed8',
    '#000080',
    '#f5f5dc',
    '#222222',
    '#3a3a3a',
    '#5a5a5a',
    '#9aa0a6',
    '#e91e63',
  ];
  let seed = 42;
  const random = () => (
    (seed = (seed * 1103515245 + 12345) % 2 ** 31),
    `#${(seed % 0x1000000).toString(16).padStart(6, '0')}`
  );
  const pairs = samples.flatMap((a) => samples.map((b) => [a, b]));
  for (let i = 0; i < 200; i++) pairs.push([random(), random()]);

  it(`keeps AA contrast for ${pairs.length} color pairs`, () => {
    for (const [mainColor, backgroundColor] of pairs) {
      const v = themeVars({ mainColor, backgroundColor });
      const where = `${mainColor} on ${backgroundColor}`;
      const bg = v['--podium-color-bg'];
      const surface = v['--podium-color-surface'];
      expect(bg).toBe(backgroundColor);
      expect(v['--podium-color-primary']).toBe(mainColor);
      expect(contrastRatio(v['--podium-color-on-primary'], mainColor), where).toBeGreaterThanOrEqual(4.5);
      for (const back of [bg, surface]) {
        expect(contrastRatio(v['--podium-color-text'], back), where).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(v['--podium-color-muted'], back), where).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(v['--podium-color-primary-text'], back), where).toBeGreaterThanOrEqual(4.5);
      }
      const best = Math.max(contrastRatio('#000000', bg), contrastRatio('#ffffff', bg));
      expect(contrastRatio(v['--podium-color-text'], bg), where).toBeGreaterThanOrEqual(Math.min(7, best));
      expect(contrastRatio(v['--podium-color-input-border'], bg), where).toBeGreaterThanOrEqual(3);
      for (const back of [bg, surface]) {
        expect(contrastRatio(v['--podium-color-focus'], back), where).toBeGreaterThanOrEqual(3);
        expect(contrastRatio(v['--podium-color-danger'], back), where).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});

describe('fonts', () => {
  it.each([
    [undefined, DEFAULT_FONT_STACK],
    ['', DEFAULT_FONT_STACK],
    ['Inter', `"Inter", ${DEFAULT_FONT_STACK}`],
    ["'Open Sans', serif", `"Open Sans", serif, ${DEFAULT_FONT_STACK}`],
    ['"Noto  Sans JP"', `"Noto Sans JP", ${DEFAULT_FONT_STACK}`],
    ['Inter; } body { color: red', DEFAULT_FONT_STACK],
    ['Inter, x");}*{color:red', `"Inter", ${DEFAULT_FONT_STACK}`],
    ['Comic Sans MS, url(evil)', `"Comic Sans MS", ${DEFAULT_FONT_STACK}`],
    ['inherit', DEFAULT_FONT_STACK],
    ['Montserrat\\", sans-serif', `sans-serif, ${DEFAULT_FONT_STACK}`],
    ['Sans-Serif', `sans-serif, ${DEFAULT_FONT_STACK}`],
    ['Inter, Inter', `"Inter", ${DEFAULT_FONT_STACK}`],
  ])('fontStack(%j)', (input, expected) => {
    expect(fontStack(input)).toBe(expected);
  });
});

describe('themeCss', () => {
  it('serializes the variables as one rule', () => {
    const css = themeCss(themeVars({ mainColor: '#ff0', fontFamily: 'Inter' }));
    expect(css).toMatch(/^:root\{(--podium-[a-z-]+:[^;{}<>]+;){13}\}$/);
    expect(css).toContain('--podium-color-primary:#ffff00;');
    expect(css).toContain('--podium-color-on-primary:#000000;');
    expect(themeCss({ '--podium-radius': '4px' }, '.podium-widget')).toBe('.podium-widget{--podium-radius:4px;}');
  });

  it('never writes a value or name that could break out of the rule', () => {
    const css = themeCss({
      '--podium-color-primary': 'red;} body{background:url(x)}',
      '--podium-a': 'x</style><script>',
      '--podium-b': '"unbalanced',
      '--podium-c': 'a/* comment',
      '--podium-d': 'x\\;',
      color: 'red',
      '--other': 'red',
      '--podium-ok': '"Inter", sans-serif',
    });
    expect(css).toBe(':root{--podium-ok:"Inter", sans-serif;}');
    expect(themeCss({}, 'a{}</style>')).toBe('a/style{}');
  });
});
