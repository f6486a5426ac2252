#!/usr/bin/env node
// Podium runs its TypeScript sources directly (Node 24 strips types); refuse older Node with a readable line.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `podium needs Node 24 or newer (this is ${process.version}); run it through npm (npm start, npx podium) to use the pinned Node.`,
  );
  process.exit(1);
}
const worker = process.argv[2] === 'worker';
// `podium worker` runs jobs for as long as it lives, and its memory is bounded (docs/api/reports.md
// "Memory"): it starts itself again, in place (execve: the same process, pid and signals), with V8's
// young generation bounded and its old generation grown 20 % past what a full collection left, and
// glibc's malloc arenas at two. V8 reads the first at start-up only and glibc the last: neither can be
// set from inside. Without them a report's allocation rate grows the young generation to 128 MB and the
// old one to three times its live set before collecting, and each thread (zlib's, in the pool) gets an
// arena of its own: 360 MB at a report's peak for about 25 MB of live heap. Flags given on the command
// line (or in NODE_OPTIONS) for the young generation are kept as they are, as is a MALLOC_ARENA_MAX.
const WORKER_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=20'];
const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
if (worker && !given.includes('--max-semi-space-size') && typeof process.execve === 'function') {
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...WORKER_FLAGS, ...process.execArgv, ...process.argv.slice(1)],
      {
        ...process.env,
        MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      },
    );
  } catch {
    // No execve here: the worker runs with V8's and glibc's defaults.
  }
}
// The worker imports only what jobs need (src/cli/worker.ts): not the API, the site or the operation table.
await import(worker ? '../src/cli/worker.ts' : '../src/cli/main.ts');
