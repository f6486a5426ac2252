// The ticket's QR code on /me (src/site/qr-svg.ts): the same matrix the `qrcode` package makes, drawn as
// one path of dark runs, with its quiet zone and an accessible name.
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrSvg } from '../../src/site/qr-svg.ts';

/** The dark modules the SVG's path paints (each `M x y h w v1 h-w z` run), as "x,y" cells. */
function painted(svg: string, margin: number): Set<string> {
  const d = /<path[^>]* d="([^"]*)"/.exec(svg)![1];
  const cells = new Set<string>();
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x, y, w] = [Number(m[1]) - margin, Number(m[2]) - margin, Number(m[3])];
    for (let i = 0; i < w; i++) cells.add(`${x + i},${y}`);
  }
  return cells;
}

describe('qrSvg', () => {
  it('paints exactly the dark modules of the code, inside the quiet zone', () => {
    const text = 'PODIUM-TICKET-0123456789abcdef';
    const svg = qrSvg(text, 'QR code of your ticket');
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const dark = new Set<string>();
    for (let y = 0; y < modules.size; y++)
      for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) dark.add(`${x},${y}`);
    expect(painted(svg, 4)).toEqual(dark);
    expect(svg).toContain(`viewBox="0 0 ${modules.size + 8} ${modules.size + 8}"`);
  });

  it('is an image with a name, and escapes it', () => {
    const svg = qrSvg('x', 'Code "<b>"');
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-label="Code &#34;&#60;b&#62;&#34;"/);
    expect(svg).not.toContain('<b>');
    expect(svg).not.toMatch(/<script|on\w+=/);
  });
});
