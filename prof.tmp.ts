import { openStore } from './src/platform/db/connect.ts';
import { loadConfig } from './src/platform/config.ts';
import { createDispatcher } from './src/platform/kernel/dispatch.ts';
import { operations } from './src/platform/catalog/index.ts';
import { createCounter } from './src/platform/limits/counter.ts';
import { createStreamHub } from './src/platform/stream/hub.ts';
import { XlsxStream, columnsOf } from './src/platform/excel.ts';
const url = process.argv[2];
const { db } = openStore(url);
const config = loadConfig({ DATABASE_URL: url });
const d = createDispatcher({ db, config, counter: createCounter(), jobs: { add: async () => false }, operations, streams: createStreamHub({ db, max: 1, heartbeatMs: 3600000 }), log: { error: console.error, warn() {}, info() {} } });
const call = { name: 'event.person.find', method: 'GET', rawQuery: '', query: { eventID: '1', selection: 'all' }, body: undefined, authorization: undefined, clientIp: '127.0.0.1', as: { personID: 1, scope: 'system' as const, targetID: 0, operator: true, tokenHash: '', expiresAt: 9e15 } };
let read = 0, write = 0, bytes = 0, peak = 0;
let w: XlsxStream | undefined;
const T = performance.now();
for (let offset = 0; ; ) {
  let t = performance.now();
  const rows = await d.reportRows(call, 2000, offset);
  read += performance.now() - t;
  t = performance.now();
  if (!w) w = new XlsxStream(columnsOf(rows), (c) => (bytes += c.length));
  await w.write(rows);
  write += performance.now() - t;
  offset += rows.length;
  peak = Math.max(peak, process.memoryUsage().rss);
  if (rows.length < 2000) break;
}
await w!.end();
console.log({ read: Math.round(read), write: Math.round(write), total: Math.round(performance.now() - T), bytes, peakMB: Math.round(peak / 1e6) });
