// The attendee's check-in code (qrCode) as a QR code in SVG, drawn on the server (/me, no script): the
// `qrcode` package makes the matrix (as the platform's e-mail PNG does, src/platform/mail/qr-png.ts), and
// each row's dark runs become one path, so the picture is a few KB and scales to any size crisply.

import QRCode from 'qrcode';

/**
 * `text` as an SVG QR code: dark modules on white, a quiet zone of `margin` modules, `viewBox` in
 * modules (the page sets its size). `label` is its accessible name (role=img).
 */
export function qrSvg(text: string, label: string, margin = 4): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const full = size + margin * 2;
  let d = '';
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && modules.get(y, x)) x++;
      d += `M${start + margin} ${y + margin}h${x - start}v1h${start - x}z`;
    }
  }
  const name = label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" role="img" aria-label="${name}" ` +
    `shape-rendering="crispEdges" class="qr"><rect width="${full}" height="${full}" fill="#fff"/>` +
    `<path fill="#000" d="${d}"/></svg>`
  );
}
