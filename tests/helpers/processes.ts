// Podium as separate OS processes (`node bin/podium.js start|worker`), for the scale-out tests: each in
// a process group of its own, so a kill reaches everything it started, and every one of them is killed
// by killAll() (afterAll), whatever the test did.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface PodiumProcess {
  readonly child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL to its whole process group: no shutdown, as a crash. Resolves once it exited. */
  kill(): Promise<void>;
}

const started = new Set<PodiumProcess>();

/** Starts `podium <command>` with `env` over the process's own; resolves once it printed `ready`. */
export async function startPodiumProcess(
  command: 'start' | 'worker' | 'site',
  env: Record<string, string>,
  ready: RegExp = {
    start: /Podium API listening on (http:\/\/\S+)/,
    worker: /Podium worker running jobs/,
    site: /Podium site listening on (http:\/\/\S+)/,
  }[command],
  timeoutMs = 30_000,
): Promise<PodiumProcess & { readonly match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['bin/podium.js', command], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: kill(-pid) reaches it and anything it started.
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: PodiumProcess = {
    child,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await exited;
      started.delete(proc);
    },
  };
  started.add(proc);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`podium ${command} did not start:\n${out}`)), timeoutMs);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`podium ${command} exited ${code}:\n${out}`));
    });
  }).catch(async (err) => {
    await proc.kill();
    throw err;
  });
  return { ...proc, match };
}

/** Kills every process startPodiumProcess started and has not killed yet. */
export async function killAll(): Promise<void> {
  await Promise.all([...started].map((p) => p.kill()));
}

/** The .eml files in `dir` (none when it does not exist). */
export const emlFiles = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds, polling every `everyMs`; throws `what` after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
  everyMs = 20,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
