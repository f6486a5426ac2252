#!/usr/bin/env node
// Podium runs its TypeScript sources directly (Node 24 strips types); refuse older Node with a readable line.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `podium needs Node 24 or newer (this is ${process.version}); run it through npm (npm start, npx podium) to use the pinned Node.`,
  );
  process.exit(1);
}
if (process.argv[2] === 'worker' && process.argv.length === 3) {
  // `podium worker` runs its jobs in a thread of this process, whose young generation is bounded
  // (PODIUM_WORKER_YOUNG_MB, default 16 MB) and whose old generation grows 20 % past what a full
  // collection left (V8's heap-growing-percent; its default lets it triple). For a process that allocates
  // as a report does (rows, attendee records, XML), V8 would grow the young generation to 128 MB and the
  // old one to three times its live set before collecting: that, not what a report holds (about 35 MB of
  // live heap), was most of a worker's 360 MB peak (docs/api/reports.md "Memory"). A thread's limits
  // are set when it starts (resourceLimits), the flag before it starts: nothing on the command line. This
  // main thread loads no TypeScript; it relays SIGINT/SIGTERM and the thread's exit code.
  const { Worker } = await import('node:worker_threads');
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--heap-growing-percent=20');
  const youngMb = Number(process.env.PODIUM_WORKER_YOUNG_MB || 16);
  const jobs = new Worker(new URL('../src/cli/worker.ts', import.meta.url), {
    resourceLimits: { maxYoungGenerationSizeMb: youngMb },
  });
  const relay = () => jobs.postMessage('stop');
  process.on('SIGINT', relay);
  process.on('SIGTERM', relay);
  jobs.on('error', (err) => {
    console.error(err);
    process.exit(1);
  });
  jobs.on('exit', (code) => process.exit(code));
} else await import('../src/cli/main.ts');
