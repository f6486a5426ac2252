// Bytes kept, or sent to the front thread, in buffers of their own (src/net/bytes.ts): a small Buffer
// is a view on Node's 64 KB pool and zlib's output a view on its 64 KB chunk, so keeping one kept the
// 64 KB, and posting one copied the 64 KB.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { keptText, ownBytes, sendable } from '../../src/net/bytes.ts';
import { brotliDecompressSync } from 'node:zlib';
import { compressFile, compressText } from '../../src/site/compress.ts';
import { compress } from '../../src/platform/compress.ts';
import { toFront } from '../../src/site/front.ts';
import { PageCache } from '../../src/site/pagecache.ts';

/** Whether `b` is the whole of its buffer. */
const alone = (b: Uint8Array) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;

describe('own bytes', () => {
  const pooled = Buffer.from('a small page');
  const whole = Buffer.allocUnsafeSlow(5).fill(1);

  it('the premise: a small Buffer is a view on a larger buffer', () => {
    expect(alone(pooled)).toBe(false);
  });

  it.each([
    ['a view on the pool', pooled, false],
    ['a buffer of its own', whole, true],
  ])('ownBytes of %s: the same bytes, alone (the same memory when they already were)', (_, bytes, same) => {
    const own = ownBytes(bytes);
    expect([alone(own), Buffer.compare(own, bytes), own.buffer === bytes.buffer]).toEqual([true, 0, same]);
  });

  it('sendable hands over the copies it makes, never the bytes it was given', () => {
    const transfer: ArrayBuffer[] = [];
    const copy = sendable(pooled, transfer);
    expect(sendable(whole, transfer).buffer).toBe(whole.buffer);
    expect(transfer).toEqual([copy.buffer]);
  });

  it('keptText: the UTF-8 bytes, alone', () => {
    const kept = keptText('café · ok');
    expect([alone(kept), kept.toString()]).toEqual([true, 'café · ok']);
  });

  it('a posted message carries what sendable gives, not the pool', async () => {
    const worker = new Worker(
      `require('node:worker_threads').parentPort.on('message', (b) => require('node:worker_threads').parentPort.postMessage(b.buffer.byteLength));`,
      { eval: true },
    );
    const sizes: number[] = [];
    for (const bytes of [pooled, sendable(pooled, [])]) {
      const got = new Promise<number>((r) => worker.once('message', r));
      worker.postMessage(bytes);
      sizes.push(await got);
    }
    await worker.terminate();
    expect(sizes).toEqual([Buffer.poolSize, pooled.byteLength]);
  });
});

describe('messages to the front thread', () => {
  it.each([
    ['an answer in one message', { type: 'head', id: 1, status: 200, headers: {}, body: 'B', end: true }],
    ['a part of an answer', { type: 'body', id: 1, body: 'B', end: false }],
    [
      'a page for its copy',
      { type: 'put', key: 'k', page: { body: 'B', variants: { br: { body: 'B', headers: {} } } } },
    ],
    [
      'a variant for its copy',
      { type: 'variant', key: 'k', etag: '"e"', encoding: 'br', variant: { body: 'B', headers: {} } },
    ],
  ])('%s carries each body as its bytes alone', async (_, shape) => {
    // Every 'B' a small Buffer (a view on the pool); the thread answers the size of each buffer it got.
    const message = JSON.parse(JSON.stringify(shape), (k, v) => (v === 'B' ? Buffer.from(`bytes of ${k}`) : v));
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const sizes = (o) => o instanceof Uint8Array ? [o.buffer.byteLength] : o && typeof o === 'object' ? Object.values(o).flatMap(sizes) : [];
       parentPort.on('message', (m) => parentPort.postMessage(sizes(m)));`,
      { eval: true },
    );
    const got = new Promise<number[]>((r) => worker.once('message', r));
    toFront(worker, message as never);
    const sizes = await got;
    await worker.terminate();
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.every((n) => n < 100)).toBe(true);
  });
});

describe('the page cache keeps its own bytes', () => {
  it('of a small page and of its compressed variant', async () => {
    const cache = new PageCache({ freshMs: 1000, fingerprintOf: async () => 'h' });
    const text = '<p>' + 'a page worth compressing '.repeat(80) + '</p>';
    // (zlib's own output is a view on its chunk: what the cache must not keep as is)
    expect(alone(await compressText('br', Buffer.from(text)))).toBe(false);
    const stored = cache.set('k', {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public' },
      body: Buffer.from(text),
      etag: '"e"',
      deps: [],
    })!;
    const variant = await cache.variant(stored, 'br');
    expect([alone(stored.body), stored.body.toString()]).toEqual([true, text]);
    expect(alone(variant!.body)).toBe(true);
  });
});

/** The window a brotli stream declares (RFC 7932, 9.1: WBITS, its first bits, least significant first). */
function windowBits(stream: Uint8Array): number {
  const bit = (i: number) => (stream[i >> 3] >> (i & 7)) & 1;
  const bits = (from: number, n: number) =>
    Array.from({ length: n }, (_, k) => bit(from + k) << k).reduce((a, b) => a | b);
  if (bit(0) === 0) return 16;
  const n = bits(1, 3);
  if (n !== 0) return 17 + n;
  const m = bits(4, 3);
  return m === 0 ? 17 : 8 + m;
}

describe("brotli's window fits the body (src/net/brotli.ts)", () => {
  it.each([
    ['a 1.3 KB page', 11, 1300],
    ['a 16 KB page', 14, 16_000],
    ['a 150 KB page', 18, 150_000],
  ])('%s: a window of 2^%s bytes at most, and the same bytes back', async (_, most, size) => {
    const body = Buffer.from(
      Array.from({ length: size }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join(''),
    );
    // The site's pages and files, and the API's answers made for one caller.
    for (const compressed of [
      await compressText('br', body),
      await compressFile('br', body),
      await compress('br', body),
    ]) {
      expect(windowBits(compressed)).toBeLessThanOrEqual(most);
      expect(brotliDecompressSync(compressed).equals(body)).toBe(true);
    }
  });
});
