#!/usr/bin/env node
// Lighthouse-style phone figures for the event's home page and its schedule (issue 12, "Tests and
// benchmark"): Debian's Chromium through playwright-core, throttled over CDP the way Lighthouse's mobile
// preset describes a phone — 150 ms round trip, 1.6 Mbps down, 750 kbps up, the CPU 4× slower — on a
// 390×844 screen at 3× (mobile, touch), a cold browser cache on every run. For each page, the median of
// N runs of:
// - LCP: the last largest-contentful-paint entry (PerformanceObserver, buffered) once the page is idle;
// - CLS: layout-shift entries without recent input, in Lighthouse's session windows (shifts less than
//   1 s apart, a window at most 5 s; the largest window's sum) — the plain sum is printed beside it;
// - FCP: the first-contentful-paint entry;
// - bytes: what crossed the wire, headers included (CDP Network.loadingFinished encodedDataLength,
//   summed), and the number of requests.
// The throttling is "applied" (DevTools-style), not Lighthouse's "simulated": CDP holds each answer's
// body back 150 ms and paces its bytes; the connection itself is local and plain HTTP/1.1, so there is
// no TCP or TLS handshake to pay for, and a real phone on a real network pays more. The CPU is 4× slower
// than this machine at the time, whatever else runs on it: the LCP column's min-max shows how much that
// moved during the runs.
// The site runs as tests/site/harness.ts starts it (`podium start`, the demo, the page cache on); one
// unmeasured load per page first, so the figures are a visited site's, not the first render after a start.
//
// Usage: npm run bench:phone [-- --runs 5] [--check] [--site http://host:port] [--verbose]
//   --check    exit 1 when a page's median LCP is over 1.5 s or its CLS is above 0
//   --site     measure a site that is already running (its demo company and event) instead of starting one
//   --verbose  every request of the last run of each page (bytes, when it was asked for and finished, type)

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.mjs';

/** Lighthouse's mobile preset: bytes per second for CDP, which takes throughput in bytes, not bits. */
export const PHONE = {
  latencyMs: 150,
  downloadBytesPerSecond: 1_600_000 / 8,
  uploadBytesPerSecond: 750_000 / 8,
  cpuSlowdown: 4,
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
};

/** The issue's goals for both pages. */
export const GOALS = { lcpMs: 1500, cls: 0 };

export const PAGES = [
  { name: 'home', path: '/demo/summit' },
  { name: 'schedule', path: '/demo/summit/schedule' },
];

// A phone's user agent, so the site and its widgets see what a phone sends.
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';

/** Debian's Chromium, headless, as the site's browser tests launch it. */
export function launchPhoneBrowser() {
  return chromium.launch(
    chromiumLaunchOptions(
      // The demo's pictures name a host that never resolves: fail its lookup at once, as a real resolver
      // answering NXDOMAIN would, rather than wait for this machine's DNS to time out.
      '--host-resolver-rules=MAP images.podium.test ~NOTFOUND',
    ),
  );
}

/**
 * Loads `url` once in a fresh context (an empty cache) under the phone's throttling and returns its
 * figures. `requests` lists what the page fetched (url, type, bytes, ms after the page's own request
 * when it was asked for and when it ended).
 * `prepare(context)` runs on the new context before the page opens (holdBack, for one).
 */
export async function measurePage(browser, url, { prepare } = {}) {
  const context = await browser.newContext({
    viewport: PHONE.viewport,
    deviceScaleFactor: PHONE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    userAgent: PHONE_UA,
  });
  try {
    await prepare?.(context);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    cdp.on('Network.requestWillBeSent', (e) => {
      // A redirect reuses the id: the hop before it is a request of its own, already counted in bytes.
      const prior = requests.get(e.requestId);
      if (prior) requests.set(`${e.requestId}#${prior.url}`, prior);
      requests.set(e.requestId, { url: e.request.url, type: e.type ?? '', bytes: 0, start: e.timestamp, end: 0 });
    });
    cdp.on('Network.responseReceived', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.bytes = e.response.encodedDataLength ?? 0; // headers so far; loadingFinished has the total
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { bytes: e.encodedDataLength, end: e.timestamp });
    });
    cdp.on('Network.loadingFailed', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { failed: e.errorText, end: e.timestamp });
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: PHONE.downloadBytesPerSecond,
      uploadThroughput: PHONE.uploadBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });

    const response = await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    if (!response || response.status() !== 200) throw new Error(`${url}: status ${response?.status()}`);
    // Scripts and widgets may still fetch and paint after load: wait for the network to rest (500 ms
    // without a request, playwright's 'networkidle'), then a little longer for a last paint.
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => {});
    await page.waitForTimeout(500);

    const figures = await page.evaluate(readPaintFigures);
    const first = Math.min(...[...requests.values()].map((r) => r.start));
    const list = [...requests.values()].map((r) => ({
      url: r.url,
      type: r.type,
      bytes: r.bytes,
      startMs: Math.round((r.start - first) * 1000),
      endMs: r.end ? Math.round((r.end - first) * 1000) : null,
      ...(r.failed ? { failed: r.failed } : {}),
    }));
    return {
      ...figures,
      bytes: list.reduce((sum, r) => sum + r.bytes, 0),
      requestCount: list.length,
      requests: list,
    };
  } finally {
    await context.close();
  }
}

/** Runs in the page: LCP, CLS (session windows and plain sum), FCP and what shifted, from buffered entries. */
async function readPaintFigures() {
  /* global PerformanceObserver, performance, setTimeout -- the page's, not Node's */
  const entries = (type) =>
    new Promise((resolve) => {
      const seen = [];
      const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
      observer.observe({ type, buffered: true });
      // Buffered entries arrive in the first callback, queued as a task: one turn of the loop is enough.
      setTimeout(() => {
        seen.push(...observer.takeRecords());
        observer.disconnect();
        resolve(seen);
      }, 0);
    });
  const describe = (node) => {
    if (!node || !node.nodeName) return null;
    if (node.nodeType !== 1) node = node.parentElement ?? node;
    const el = /** @type {Element} */ (node);
    const id = el.id ? `#${el.id}` : '';
    const cls =
      typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${el.nodeName.toLowerCase()}${id}${cls}${text ? ` "${text}"` : ''}`;
  };
  const lcpEntries = await entries('largest-contentful-paint');
  const last = lcpEntries.at(-1);
  const shifts = (await entries('layout-shift')).filter((e) => !e.hadRecentInput);
  // Lighthouse's CLS: group shifts into windows (gap < 1 s, window ≤ 5 s) and take the largest sum.
  let cls = 0;
  let windowSum = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const s of shifts) {
    if (s.startTime - previous >= 1000 || s.startTime - windowStart >= 5000) {
      windowSum = 0;
      windowStart = s.startTime;
    }
    windowSum += s.value;
    previous = s.startTime;
    cls = Math.max(cls, windowSum);
  }
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  // Where the time before the first paint went: the page's last byte (CDP's emulation sends the headers
  // at once and holds the body back, so responseStart says nothing), and the last of the files that
  // block rendering (stylesheets in the head, classic scripts); what follows them is the CPU's work.
  const nav = performance.getEntriesByType('navigation')[0];
  const blocking = performance
    .getEntriesByType('resource')
    .filter((r) => r.renderBlockingStatus === 'blocking')
    .map((r) => r.responseEnd);
  return {
    htmlDoneMs: nav ? Math.round(nav.responseEnd) : null,
    blockingDoneMs: Math.round(Math.max(nav?.responseEnd ?? 0, ...blocking)),
    lcpMs: last ? Math.round(last.startTime) : null,
    lcpElement: last ? (describe(last.element) ?? (last.url || null)) : null,
    lcpSize: last ? last.size : null,
    cls,
    clsSum: shifts.reduce((sum, s) => sum + s.value, 0),
    shifts: shifts.map((s) => ({
      atMs: Math.round(s.startTime),
      value: s.value,
      sources: (s.sources ?? []).map((src) => describe(src.node)).filter(Boolean),
    })),
    fcpMs: fcp ? Math.round(fcp.startTime) : null,
  };
}

/**
 * A `prepare` for measurePage that holds back the requests matching `match` for `ms`, then sends them
 * on (or answers them with `fulfill`, playwright's route.fulfill options): scripts or pictures that
 * arrive after the first paint, as they may on a slow phone, to check that they move nothing.
 */
export function holdBack(match, ms, fulfill) {
  return (context) =>
    context.route(match, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await (fulfill ? route.fulfill(fulfill) : route.continue());
    });
}

const median = (values) => {
  const v = values.filter((x) => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};

/** Measures each page `runs` times (after one unmeasured load) and returns the medians and every run. */
export async function measureSite(browser, site, { runs = 5, pages = PAGES } = {}) {
  const rows = [];
  for (const p of pages) {
    await measurePage(browser, site + p.path); // warms the site's page cache, not the browser's
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await measurePage(browser, site + p.path));
    rows.push({
      page: p.name,
      path: p.path,
      lcpMs: median(all.map((r) => r.lcpMs)),
      cls: median(all.map((r) => r.cls)),
      clsSum: median(all.map((r) => r.clsSum)),
      fcpMs: median(all.map((r) => r.fcpMs)),
      htmlDoneMs: median(all.map((r) => r.htmlDoneMs)),
      blockingDoneMs: median(all.map((r) => r.blockingDoneMs)),
      lcpRangeMs: [Math.min(...all.map((r) => r.lcpMs ?? Infinity)), Math.max(...all.map((r) => r.lcpMs ?? Infinity))],
      bytes: median(all.map((r) => r.bytes)),
      requestCount: median(all.map((r) => r.requestCount)),
      lcpElement: all.at(-1).lcpElement,
      runs: all,
    });
  }
  return rows;
}

/** The goals a row misses, as plain sentences (empty when it meets them). */
export function missedGoals(row) {
  const missed = [];
  if (row.lcpMs === null || row.lcpMs > GOALS.lcpMs)
    missed.push(`${row.page}: LCP ${row.lcpMs} ms > ${GOALS.lcpMs} ms`);
  if (row.cls > GOALS.cls) missed.push(`${row.page}: CLS ${row.cls.toFixed(4)} > ${GOALS.cls}`);
  return missed;
}

function printTable(rows) {
  const lines = [
    [
      'page',
      'LCP ms',
      '(min-max)',
      'FCP ms',
      'HTML ms',
      'blocking ms',
      'CLS',
      'CLS sum',
      'bytes',
      'requests',
      'LCP element',
    ],
  ];
  for (const r of rows)
    lines.push([
      r.path,
      String(r.lcpMs),
      r.lcpRangeMs.join('-'),
      String(r.fcpMs),
      String(r.htmlDoneMs),
      String(r.blockingDoneMs),
      r.cls.toFixed(4),
      r.clsSum.toFixed(4),
      r.bytes.toLocaleString('en'),
      String(r.requestCount),
      r.lcpElement ?? '',
    ]);
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const l of lines) console.log(l.map((c, i) => c.padEnd(widths[i])).join('  '));
}

function printRequests(row) {
  console.log(`\n${row.path}, last run: ${row.runs.at(-1).requestCount} requests`);
  for (const r of row.runs.at(-1).requests)
    console.log(
      `  ${String(r.bytes).padStart(7)} B  ${String(r.startMs).padStart(5)}-${String(r.endMs ?? '-').padStart(5)} ms  ${r.type.padEnd(10)} ${r.url}${r.failed ? ` (${r.failed})` : ''}`,
    );
  for (const s of row.runs.at(-1).shifts)
    console.log(`  shift ${s.value.toFixed(4)} at ${s.atMs} ms: ${s.sources.join(' | ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      check: { type: 'boolean', default: false },
      site: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number above 0, not ${values.runs}`);
  // Imported here, so that the test's import of this file does not load the harness twice.
  const { startPodium } = values.site ? {} : await import('../tests/site/harness.ts');
  const podium = values.site ? null : await startPodium();
  const browser = await launchPhoneBrowser();
  try {
    const site = values.site?.replace(/\/$/, '') ?? podium.site;
    const rows = await measureSite(browser, site, { runs });
    console.log(
      `phone: ${PHONE.latencyMs} ms RTT, ${(PHONE.downloadBytesPerSecond * 8) / 1e6} Mbps down, ` +
        `${(PHONE.uploadBytesPerSecond * 8) / 1e3} kbps up, CPU ×${PHONE.cpuSlowdown}, ` +
        `${PHONE.viewport.width}×${PHONE.viewport.height} @${PHONE.deviceScaleFactor}x; median of ${runs} cold loads\n`,
    );
    printTable(rows);
    if (values.verbose) for (const r of rows) printRequests(r);
    const missed = rows.flatMap(missedGoals);
    console.log(
      JSON.stringify({
        bench: 'phone',
        runs,
        goals: GOALS,
        pages: rows.map(({ runs: _all, ...r }) => r),
        missed,
      }),
    );
    if (missed.length > 0) {
      console.error(`goals missed: ${missed.join('; ')}`);
      if (values.check) process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await podium?.stop();
  }
}
