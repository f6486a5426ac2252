import { ConfigError, loadConfig } from '../platform/config.ts';
import { runWorker } from '../platform/jobs/worker.ts';
import { startFailure } from './errors.ts';

// `podium worker` (bin/podium.js starts it with bounded memory: see there): runs the platform's jobs,
// importing only what they need — not the API, the site or the operation table (each job loads the
// operations it runs when it runs them: docs/api/reports.md "Memory").

try {
  const config = loadConfig();
  const worker = await runWorker(config);
  console.log(`Podium worker running jobs (store: ${worker.store.kind}, ${config.JOBS_CONCURRENCY} at a time)`);
  // SIGTERM (a deploy, docker stop) lets the jobs in hand finish, or releases them to another worker.
  const stop = async () => {
    await worker.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : startFailure(err));
  process.exit(1);
}
