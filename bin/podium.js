#!/usr/bin/env node
// Podium runs its TypeScript sources directly (Node 24 strips types); refuse older Node with a readable line.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `podium needs Node 24 or newer (this is ${process.version}); run it through npm (npm start, npx podium) to use the pinned Node.`,
  );
  process.exit(1);
}
await import('../src/cli/main.ts');
