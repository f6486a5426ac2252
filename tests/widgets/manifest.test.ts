import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { themeVars } from '../../src/shared/theme.ts';

// The Custom Elements Manifest is made from the components' JSDoc; docs/widgets.md must document all
// of it, and the widgets' CSS defaults must be the theme's.

const root = join(import.meta.dirname, '..', '..');

interface Declaration {
  kind: string;
  name: string;
  tagName?: string;
  summary?: string;
  attributes?: { name: string }[];
  events?: { name: string }[];
  cssParts?: { name: string }[];
  cssProperties?: { name: string }[];
  slots?: { name: string }[];
}

describe('the widgets manifest', () => {
  let dir: string;
  let elements: Declaration[];
  const docs = readFileSync(join(root, 'docs', 'widgets.md'), 'utf8');

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'podium-cem-'));
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules', '@custom-elements-manifest', 'analyzer', 'cem.js'),
        'analyze',
        '--config',
        'widgets/custom-elements-manifest.config.mjs',
      ],
      // The analyzer writes under its working directory.
      { cwd: root, env: { ...process.env, CEM_OUTDIR: relative(root, dir) }, stdio: 'pipe' },
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'custom-elements.json'), 'utf8')) as {
      modules: { declarations?: Declaration[] }[];
    };
    elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('describes the three widgets with a summary each', () => {
    expect(elements.map((e) => e.tagName).sort()).toEqual([
      'podium-access-gate',
      'podium-agenda',
      'podium-registration',
    ]);
    for (const e of elements) expect(e.summary, e.tagName).toBeTruthy();
  });

  it('lists only public attributes', () => {
    const registration = elements.find((e) => e.tagName === 'podium-registration')!;
    expect(registration.attributes!.map((a) => a.name).sort()).toEqual(
      ['api', 'email', 'event', 'first-name', 'grant', 'invite', 'invite-param', 'last-name', 'locale', 'rsvp'].sort(),
    );
  });

  it('is documented in docs/widgets.md: every attribute, event, part, custom property and slot', () => {
    const missing: string[] = [];
    for (const e of elements) {
      if (!docs.includes(`\`<${e.tagName}>\``)) missing.push(e.tagName!);
      const names = [
        ...(e.attributes ?? []).map((a) => a.name),
        ...(e.events ?? []).map((x) => x.name),
        ...(e.cssParts ?? []).map((p) => p.name),
        ...(e.cssProperties ?? []).map((p) => p.name),
        ...(e.slots ?? []).map((s) => s.name).filter(Boolean),
      ];
      for (const name of names) if (!docs.includes(`\`${name}\``)) missing.push(`${e.tagName}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it("uses the theme's defaults as the widgets' fallbacks", () => {
    const css = readFileSync(join(root, 'widgets', 'src', 'styles', 'common.styles.ts'), 'utf8');
    const defaults = themeVars();
    const fallbacks = [...css.matchAll(/var\((--podium-[a-z-]+), (#[0-9a-f]+)\)/g)];
    expect(fallbacks.length).toBeGreaterThan(8);
    const long = (hex: string) => (hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex);
    for (const [, name, value] of fallbacks) expect(long(value), name).toBe(defaults[name as keyof typeof defaults]);
  });
});
