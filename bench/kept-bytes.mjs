// bench/kept-bytes.mjs — what keeping and posting bytes alone (src/net/bytes.ts) and fitting brotli's
// window (src/net/brotli.ts) save, on the demo's own pages (a `podium start` with the demo is started
// to read them, plain):
// - memory: 1,000 hotsite pages kept with their br and gzip variants, and 5,000 API answers of 2 KB with
//   theirs, kept as the views Buffer.from and zlib give (as before) and as their bytes alone (as now);
//   ArrayBuffer memory after a full GC (node --expose-gc);
// - postMessage of the 404 page to a worker thread, as a view on the pool and as sendable() gives it:
//   the process's CPU per message, one core;
// - brotli 6 on each page with the default window and with brotliParams: CPU per call (zlib async, as
//   the site calls it).
// Usage: node --expose-gc bench/kept-bytes.mjs   (pins itself to core 0; ~1 minute)
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { pinSelf, startPinned } from './lib.mjs';
import { brotliParams } from '../src/net/brotli.ts';
import { ownBytes, sendable } from '../src/net/bytes.ts';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
pinSelf(0);
const br = promisify(brotliCompress);
const gz = promisify(gzip);

const dir = mkdtempSync(join(tmpdir(), 'podium-kept-'));
const env = { DATABASE_URL: `file:${join(dir, 'podium.db')}`, API_PORT: '0', SITE_PORT: '0', LOG_LEVEL: 'warn' };
execFileSync(process.execPath, ['bin/podium.js', 'seed', 'demo'], { env: { ...process.env, ...env }, stdio: 'ignore' });
const podium = await startPinned(1, ['bin/podium.js', 'start'], { ...env, SEED_DEMO: '0' });
let site;
while (!(site = /Podium site listening on (http:\/\/\S+)/.exec(podium.output())?.[1])) await sleep(50);
const pages = {};
for (const [name, path] of [
  ['404 page', '/no-such-company'],
  ['hotsite', '/demo/summit'],
  ['schedule', '/demo/summit/schedule'],
])
  pages[name] = Buffer.from(
    await (await fetch(site + path, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
  );
podium.child.kill();

async function cpuPerCall(body, params) {
  for (let i = 0; i < 50; i++) await br(body, { params });
  const cpu = process.cpuUsage();
  const n = 400;
  for (let i = 0; i < n; i++) await br(body, { params });
  const used = process.cpuUsage(cpu);
  return ((used.user + used.system) / n).toFixed(0);
}
for (const [name, body] of Object.entries(pages)) {
  const plain = { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
  console.log(
    `brotli 6, the ${name} (${body.length} bytes), CPU a call: default window ${await cpuPerCall(body, plain)} µs | fitted ${await cpuPerCall(body, brotliParams(6, body.length))} µs`,
  );
}

const worker = new Worker(
  `const { parentPort } = require('node:worker_threads'); let n = 0; parentPort.on('message', () => { if (++n % 1000 === 0) parentPort.postMessage(n); });`,
  { eval: true },
);
async function posted(make) {
  const cpu = process.cpuUsage();
  for (let i = 0; i < 10_000; i++) {
    const transfer = [];
    const body = make(transfer);
    worker.postMessage(
      { type: 'head', id: i, status: 404, headers: { 'content-type': 'text/html' }, body, end: true },
      transfer,
    );
    if (i % 1000 === 999) await new Promise((r) => worker.once('message', r));
  }
  const used = process.cpuUsage(cpu);
  return `${((used.user + used.system) / 10_000).toFixed(1)} µs`;
}
const notFound = pages['404 page'];
for (let round = 0; round < 2; round++)
  console.log(
    `postMessage of the ${notFound.length}-byte 404 page, CPU a message: a view on the pool`,
    await posted(() => Buffer.from(notFound)),
    '| sendable',
    await posted((t) => sendable(Buffer.from(notFound), t)),
  );
await worker.terminate();

/** ArrayBuffer memory held by what `keep` returns for `n` items, after a full GC, in MB. */
async function held(n, keep) {
  // (what the last measure kept is freed first: its buffers go a moment after the collection)
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await sleep(100);
  }
  const before = process.memoryUsage().arrayBuffers;
  const kept = [];
  for (let i = 0; i < n; i++) kept.push(await keep(i));
  globalThis.gc();
  const mb = (process.memoryUsage().arrayBuffers - before) / 1e6;
  const bytes = kept.flat().reduce((s, b) => s + b.byteLength, 0) / 1e6;
  return `${mb.toFixed(1)} MB held for ${bytes.toFixed(1)} MB of bytes`;
}
const html = pages.hotsite.toString();
const page = async (i, own) => {
  const body = Buffer.from(`${html}<!-- ${i} -->`);
  const variants = [await br(body, { params: brotliParams(6, body.length) }), await gz(body, { level: 6 })];
  return own ? [body, ...variants].map(ownBytes) : [body, ...variants];
};
const answer = async (i, own) => {
  const body = Buffer.from(JSON.stringify({ count: '1', data: [{ id: String(i), name: 'session '.repeat(250) }] }));
  const variants = [await br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }), await gz(body, { level: 9 })];
  return own ? [body, ...variants].map(ownBytes) : [body, ...variants];
};
console.log(
  '1,000 hotsite pages, br and gzip: as views',
  await held(1000, (i) => page(i, false)),
  '| alone',
  await held(1000, (i) => page(i, true)),
);
console.log(
  '5,000 API answers of 2 KB, br and gzip: as views',
  await held(5000, (i) => answer(i, false)),
  '| alone',
  await held(5000, (i) => answer(i, true)),
);
