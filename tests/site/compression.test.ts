// Compression of the site (issue 11, item 5) over real HTTP against `podium start`: pages and text
// answers by Accept-Encoding (br preferred, gzip, none), compressed once per cached page; /_astro/* and
// /widgets/*.js from the .br/.gz the build writes; Vary, Content-Length and 304 right on each. Prints the
// bytes on the wire of each (plain / gzip / br).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageCache } from '../../src/site/pagecache.ts';
import { precompressDir } from '../../src/site/precompress.ts';
import { ROOT, startPodium, type Podium } from './harness.ts';

let p: Podium;
let asset: string;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body is kept as the bytes on the wire (node:http decodes nothing). */
function raw(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${p.site}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw): Buffer =>
  r.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(r.body)
    : r.headers['content-encoding'] === 'gzip'
      ? gunzipSync(r.body)
      : r.body;

beforeAll(async () => {
  p = await startPodium();
  const home = await raw('/demo/summit');
  asset = /href="(\/_astro\/[^"]+\.css)"/.exec(home.body.toString())![1];
}, 120_000);

const wire = new Map<string, Record<string, number>>();
afterAll(async () => {
  await p?.stop();
  if (wire.size === 0) return;
  const rows = [...wire].map(
    ([what, b]) => `  ${what.padEnd(34)} ${[b.none, b.gzip, b.br].map((n) => String(n).padStart(8)).join(' ')}`,
  );
  console.log(`bytes on the wire            plain     gzip       br\n${rows.join('\n')}`);
});

const ENCODINGS = [
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['gzip, deflate, br, zstd', 'br'], // what browsers send: br is preferred
  ['br;q=0, gzip', 'gzip'],
  ['identity', undefined],
  [undefined, undefined],
] as const;

/** Every encoding of one answer: the right Content-Encoding, exact bytes, Vary, Content-Length; returns the plain bytes. */
async function checkEncodings(path: string, type: string, measure: string): Promise<Buffer> {
  const plain = await raw(path);
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  const sizes: Record<string, number> = { none: plain.body.length };
  for (const [accept, expected] of ENCODINGS) {
    // Twice: the first may render (or load) the answer, the second is served from what was kept.
    for (const round of [1, 2]) {
      const res = await raw(path, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.status, `${path} ${accept} #${round}`).toBe(200);
      expect(res.headers['content-encoding'], `${path} ${accept} #${round}`).toBe(expected);
      expect(res.headers['content-type']).toBe(type);
      expect(String(res.headers.vary)).toMatch(/(?:^|, )Accept-Encoding(?:,|$)/);
      expect(res.headers['content-length']).toBe(String(res.body.length));
      expect(decode(res).equals(plain.body), `${path} ${accept} #${round} decodes to the plain bytes`).toBe(true);
      if (expected) {
        expect(res.body.length).toBeLessThan(plain.body.length / 2);
        sizes[expected] = res.body.length;
      }
    }
  }
  wire.set(measure, sizes);
  return plain.body;
}

describe('pages and text answers', () => {
  it.each([
    ['/demo/summit', 'the home page (hotsite)'],
    ['/demo/summit/schedule', 'the schedule page'],
    ['/demo', 'the company directory'],
  ])('%s goes out br, gzip or plain by Accept-Encoding', async (path, what) => {
    await checkEncodings(path, 'text/html; charset=utf-8', what);
  });

  it('iCalendar and the sitemap are compressed too', async () => {
    await checkEncodings('/demo/summit/schedule.ics', 'text/calendar; charset=utf-8', 'schedule.ics');
    const sitemap = await raw('/demo/sitemap.xml', { 'accept-encoding': 'br' });
    expect(sitemap.status).toBe(200);
    if (sitemap.body.length >= 1024) expect(sitemap.headers['content-encoding']).toBe('br');
    expect(String(sitemap.headers.vary)).toContain('Accept-Encoding');
  });

  it("a page's first answer (its render) is compressed too, through the variant the cache keeps", async () => {
    // Each language is its own cache entry, so each first request here renders the page.
    for (const [lang, accept] of [
      ['pt', 'br'],
      ['es', 'gzip'],
    ]) {
      const first = await raw('/demo/summit/sponsors', { 'accept-language': lang, 'accept-encoding': accept });
      expect(first.status).toBe(200);
      expect(first.headers['content-encoding'], lang).toBe(accept);
      expect(first.headers['content-length']).toBe(String(first.body.length));
      const hit = await raw('/demo/summit/sponsors', { 'accept-language': lang, 'accept-encoding': accept });
      expect(hit.body.equals(first.body)).toBe(true);
      const plain = await raw('/demo/summit/sponsors', { 'accept-language': lang });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(decode(first).equals(plain.body)).toBe(true);
    }
  });

  it('a page kept out of the cache (a 404) is compressed for its request', async () => {
    const plain = await raw('/demo/summit/no/such/page');
    const br = await raw('/demo/summit/no/such/page', { 'accept-encoding': 'br' });
    expect(br.status).toBe(404);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(decode(br).equals(plain.body)).toBe(true);
  });

  it('the ETag answers 304 whatever the encoding, with Vary, and a HEAD says the encoded length', async () => {
    for (const accept of ['br', 'gzip', '']) {
      const first = await raw('/demo/summit/schedule', { 'accept-encoding': accept });
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"/);
      const again = await raw('/demo/summit/schedule', { 'accept-encoding': accept, 'if-none-match': etag });
      expect(again.status, accept).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(String(again.headers.vary)).toContain('Accept-Encoding');
    }
    const head = await new Promise<Raw>((resolve, reject) => {
      const req = request(`${p.site}/demo/summit`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } }, (res) =>
        res.resume().on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.alloc(0) })),
      );
      req.on('error', reject);
      req.end();
    });
    const get = await raw('/demo/summit', { 'accept-encoding': 'br' });
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(get.body.length));
  });
});

describe('files', () => {
  it('an /_astro/ asset is sent from the .br/.gz the build wrote, immutable', async () => {
    await checkEncodings(asset, 'text/css; charset=utf-8', `${asset.slice(0, 20)}….css`);
    const file = join(ROOT, 'dist/client', asset);
    const br = await raw(asset, { 'accept-encoding': 'br' });
    expect(br.body.equals(readFileSync(`${file}.br`))).toBe(true);
    expect((await raw(asset, { 'accept-encoding': 'gzip' })).body.equals(readFileSync(`${file}.gz`))).toBe(true);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await raw(asset, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(String(again.headers.vary)).toContain('Accept-Encoding');
  });

  it('/widgets/podium.js keeps its URL, with a short max-age and an ETag, sent precompressed with CORS', async () => {
    const plain = await raw('/widgets/podium.js');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.body.toString()).toMatch(/^import "\.\/chunks\/[\w-]+\.js";$/m);
    for (const [accept, encoding, suffix] of [
      ['br', 'br', '.br'],
      ['gzip', 'gzip', '.gz'],
    ] as const) {
      const res = await raw('/widgets/podium.js', { 'accept-encoding': accept });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.body.equals(readFileSync(join(ROOT, `dist/client/widgets/podium.js${suffix}`)))).toBe(true);
      expect(decode(res).equals(plain.body)).toBe(true);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers.vary).toBe('Accept-Encoding');
      const again = await raw('/widgets/podium.js', {
        'accept-encoding': accept,
        'if-none-match': String(res.headers.etag),
      });
      expect(again.status).toBe(304);
    }
  });

  it("the widgets' chunks are immutable, sent precompressed with CORS", async () => {
    const loader = (await raw('/widgets/podium-registration.js')).body.toString();
    const chunk = /^export \* from "\.(\/chunks\/registration-[\w]+\.js)";$/m.exec(loader)![1];
    const path = `/widgets${chunk}`;
    await checkEncodings(path, 'text/javascript; charset=utf-8', '/widgets/chunks/registration-….js');
    const br = await raw(path, { 'accept-encoding': 'br' });
    expect(br.body.equals(readFileSync(join(ROOT, `dist/client${path}.br`)))).toBe(true);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['access-control-allow-origin']).toBe('*');
  });

  it('the build wrote a .br and a .gz beside every script and stylesheet it serves', () => {
    for (const dir of [join(ROOT, 'dist/client/_astro'), join(ROOT, 'dist/client/widgets')]) {
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(?:js|css)$/.test(f));
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        // A file of a few bytes (an entry that only imports a chunk) gains nothing: the build keeps no variant.
        const body = readFileSync(join(dir, f));
        if (!existsSync(join(dir, `${f}.gz`)) && gzipSync(body, { level: 9 }).length >= body.length) continue;
        expect(existsSync(join(dir, `${f}.br`)), `${f}.br`).toBe(true);
        expect(existsSync(join(dir, `${f}.gz`)), `${f}.gz`).toBe(true);
        expect(gunzipSync(readFileSync(join(dir, `${f}.gz`))).equals(readFileSync(join(dir, f)))).toBe(true);
      }
    }
  });
});

describe('the page cache keeps the variants', () => {
  const page = () => ({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', vary: 'Accept-Encoding', etag: '"x"' },
    body: Buffer.from('<p>Podium</p>'.repeat(500)),
    etag: '"x"',
    deps: [],
  });

  it('compresses a page once per encoding, then hands the kept bytes to every hit', async () => {
    const cache = new PageCache({ fingerprintOf: async () => '' });
    const stored = cache.set('k', page())!;
    const plainBytes = cache.bytes;
    const first = cache.variant(stored, 'br');
    expect(first).toBeInstanceOf(Promise);
    expect(cache.variant(stored, 'br')).toBe(first); // a request meanwhile waits for the same compression
    const made = await first;
    expect(cache.variant(stored, 'br')).toBe(made); // later hits: the kept bytes, no promise
    expect(made!.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(made!.body).equals(stored.body)).toBe(true);
    expect(cache.bytes).toBe(plainBytes + made!.body.length); // counted against the cache's memory
    cache.delete('k');
    expect(cache.bytes).toBe(0);
  });

  it('leaves small pages as they are', () => {
    const cache = new PageCache({ fingerprintOf: async () => '' });
    const stored = cache.set('k', { ...page(), body: Buffer.from('<p>short</p>') })!;
    expect(cache.variant(stored, 'gzip')).toBeUndefined();
  });
});

describe("the build's variants of a file", () => {
  it.each([
    ['a script', 'export const podium = "widgets";\n'.repeat(200), true],
    ['a loader of a few bytes', 'import"./a.js";', false],
  ])('%s: a .br and a .gz only where smaller than the file (sirv sends any it finds)', async (_, text, kept) => {
    const dir = mkdtempSync(join(tmpdir(), 'podium-precompress-'));
    const file = join(dir, 'podium.js');
    writeFileSync(file, text);
    // A variant left from an earlier build goes when it no longer pays.
    writeFileSync(`${file}.gz`, 'stale');
    expect(await precompressDir(dir, true)).toEqual([file]);
    expect(existsSync(`${file}.br`)).toBe(kept);
    expect(existsSync(`${file}.gz`)).toBe(kept);
    if (kept) {
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(text);
      expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(text);
    }
  });
});
