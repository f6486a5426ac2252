import { crc32, deflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import type * as QRCodeModule from 'qrcode';

// The check-in code of a confirmation as a PNG (issue 15): qrcode makes the QR matrix (encoding, error
// correction, masks); the picture is written here as a 1-bit greyscale PNG. qrcode's own PNG renderer
// (pngjs) paints 8-bit RGBA and tries five row filters per row: ~10-20 ms of CPU per message, most of a
// confirmation's cost (bench/mail.mjs). A two-colour picture needs none of that: 240×240 at one bit a
// pixel is 7 KB before deflate, written in well under a millisecond, and the file is smaller too.

// qrcode is loaded at the first picture, not with every module that imports this one (docs/api/reports.md "Memory").
let QRCode: typeof QRCodeModule | undefined;
const qrcode = () => (QRCode ??= createRequire(import.meta.url)('qrcode') as typeof QRCodeModule);

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * `text` as a QR code PNG `width` pixels square with a quiet zone of `margin` modules, dark on white;
 * pixels map to modules as qrcode's renderer maps them (its `width` option).
 */
export function qrPng(
  text: string,
  width = 240,
  margin = 2,
  errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H' = 'M',
): Buffer {
  const { modules } = qrcode().create(text, { errorCorrectionLevel });
  const size = modules.size;
  const scale = width / (size + margin * 2);
  const stride = Math.ceil(width / 8);
  // One filter byte (0: none) per row, then the row's bits, 1 = white (greyscale, bit depth 1).
  const raw = Buffer.alloc((stride + 1) * width);
  // Which module each pixel column / row falls in (-1: the quiet zone).
  const at = Array.from({ length: width }, (_, p) => {
    const m = Math.floor(p / scale - margin);
    return m >= 0 && m < size ? m : -1;
  });
  for (let y = 0; y < width; y++) {
    const row = y * (stride + 1) + 1;
    const my = at[y];
    // Pixel rows of the same module row are the same bytes.
    if (y > 0 && at[y - 1] === my) {
      raw.copy(raw, row, row - stride - 1, row - 1);
      continue;
    }
    for (let x = 0; x < width; x++) {
      const mx = at[x];
      const dark = my >= 0 && mx >= 0 && modules.get(my, mx) === 1;
      if (!dark) raw[row + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // compression, filter and interlace methods: 0
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
