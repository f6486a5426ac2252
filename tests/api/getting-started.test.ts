// docs/getting-started.md cannot rot: its ```sh blocks run, in order, in one bash against a real
// platform (a fresh store of each kind, the CLI on the same store), every curl in them must answer 200,
// and the ```text block after a block is exactly what that block prints. A text block that starts with
// a status line (`400 …`) is an answer the guide shows being refused: that block's curl must answer it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../site/harness.ts';
import { STORES, freshStore, startTestPlatform } from '../helpers/platform.ts';

const GUIDE = readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8');

interface Step {
  /** The shell code of a ```sh block. */
  code: string;
  /** What it must print (the ```text block right after it), or undefined. */
  output?: string;
}

/** The guide's ```sh blocks, each with the ```text block that follows it, if any. */
export function stepsOf(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const [, lang, body] of markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)) {
    if (lang === 'sh') steps.push({ code: body });
    else if (lang === 'text' && steps.length && steps.at(-1)!.output === undefined) steps.at(-1)!.output = body.trim();
  }
  return steps;
}

const MARK = '@@step';

/**
 * One bash script of every step; each curl's HTTP status goes to `statusLog`, after a line naming its
 * step. The mark starts on a line of its own: a refusal's line has no newline at its end.
 */
function scriptOf(steps: Step[], statusLog: string): string {
  const prelude = [
    'set -euo pipefail',
    `curl() { command curl -w '%{stderr}%{http_code}\\n' "$@" 2>>'${statusLog}'; }`,
  ];
  return [
    ...prelude,
    ...steps.flatMap((s, i) => [`printf '\\n${MARK} ${i}\\n'; echo '${MARK} ${i}' >>'${statusLog}'`, s.code]),
  ].join('\n');
}

/** A log (stdout or statuses) cut at the step marks: the lines of step i at [i]. */
function perStep(log: string, count: number): string[][] {
  const out: string[][] = Array.from({ length: count }, () => []);
  let step = -1;
  for (const line of log.split('\n')) {
    const mark = line.startsWith(MARK) ? Number(line.slice(MARK.length + 1)) : NaN;
    if (!Number.isNaN(mark)) step = mark;
    else if (step >= 0 && line !== '') out[step].push(line);
  }
  return out;
}

describe('docs/getting-started.md', () => {
  const steps = stepsOf(GUIDE);

  it('has the steps the guide is about, from the operator to a private event', () => {
    const all = steps.map((s) => s.code).join('\n');
    for (const call of [
      'npx podium admin create',
      'person/signIn',
      'company/create',
      'company/event/bind',
      'event/edit',
      'activity/create',
      'speaker/create',
      'activity/speaker/bind',
      'event/hotsite/create',
      'form/edit',
      'form/respondRegistration',
      'edit visible 1',
    ])
      expect(all).toContain(call);
    expect(steps.filter((s) => s.output !== undefined).length).toBeGreaterThanOrEqual(6);
  });

  it.each(STORES)(
    'runs as written on %s',
    async (kind) => {
      const store = await freshStore(kind);
      // The default rate limits (the suites' platforms lift them): the guide's script must work as a reader's does.
      const p = await startTestPlatform(kind, {
        DATABASE_URL: store.url,
        RATE_LIMIT_TOKEN: '10',
        RATE_LIMIT_CLIENT: '100',
      });
      const statusLog = join(mkdtempSync(join(tmpdir(), 'podium-guide-')), 'status.log');
      try {
        const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number }>(
          (resolve) =>
            execFile(
              'bash',
              ['-c', scriptOf(steps, statusLog)],
              { cwd: ROOT, env: { ...process.env, API: p.url, DATABASE_URL: store.url }, timeout: 60_000 },
              (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? ((err.code as number) ?? 1) : 0 }),
            ),
        );
        expect(code, `the guide's script failed:\n${stdout}\n${stderr}`).toBe(0);
        const printed = perStep(stdout, steps.length);
        const statuses = perStep(readFileSync(statusLog, 'utf8'), steps.length);
        steps.forEach((step, i) => {
          const where = `step ${i}:\n${step.code}`;
          const refusal = /^(\d{3}) /.exec(step.output ?? '')?.[1];
          expect(statuses[i].length, where).toBeGreaterThan(0);
          if (refusal) expect(statuses[i].at(-1), where).toBe(refusal);
          // A 429 is the rate limit: the guide's `api` waits and sends that call again.
          const sent = statuses[i].filter((status) => status !== '429');
          const fine = refusal ? sent.slice(0, -1) : sent;
          expect(fine, where).toEqual(fine.map(() => '200'));
          if (step.output !== undefined) expect(printed[i].join('\n'), where).toBe(step.output);
        });
      } finally {
        await p.close();
        await store.drop();
      }
    },
    240_000,
  );
});
